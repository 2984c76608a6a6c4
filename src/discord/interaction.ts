import type { ChannelMessage } from '../message.js';
import type {
	APIActionRowComponent,
	APIApplicationCommandOptionChoice,
	APIComponentInMessageActionRow,
	APIModalInteractionResponseCallbackData,
} from 'discord.js';

/** What a handler sends: plain Discord JSON, the same for both transports. */
export interface MessagePayload extends ChannelMessage {
	components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

export type Visibility = 'private' | 'public';

/** How the interaction was first answered; Discord allows exactly one first response. */
export type Acknowledgement = 'reply' | 'defer' | 'update' | 'defer-update' | 'modal' | 'autocomplete';

/**
 * One interaction, whichever transport delivered it (gateway dispatch or signed HTTP request).
 * Everything a handler reads comes from the interaction payload itself, never from a cache.
 */
export interface BaseInteraction {
	readonly id: string;
	readonly userId: string;
	readonly guildId: string | null;
	readonly channelId: string | null;
	/** The member's Discord locale, e.g. `de`. */
	readonly locale: string;
	/** The server's preferred locale; null in DMs. */
	readonly guildLocale: string | null;
	/** The member's permissions in this channel; null in DMs. */
	readonly memberPermissions: bigint | null;
	/** Role ids of the member; null in DMs. */
	readonly memberRoles: readonly string[] | null;
	/** The bot's own permissions in this channel; null when Discord did not send them. */
	readonly appPermissions: bigint | null;
	/** Epoch ms, from the interaction id. */
	readonly createdAt: number;
	readonly acknowledgement: Acknowledgement | null;

	reply(payload: MessagePayload, visibility: Visibility): Promise<void>;
	/** Acknowledges now and answers later with editReply; visibility is fixed here. */
	defer(visibility: Visibility): Promise<void>;
	/** Replaces the deferred or first reply (content, embeds, components and attachments). */
	editReply(payload: MessagePayload): Promise<void>;
	/** A new message after the first response. */
	followUp(payload: MessagePayload, visibility: Visibility): Promise<void>;
}

export interface CommandOptions {
	string(name: string): string | null;
	integer(name: string): number | null;
	/** A number option (whole or not). */
	number(name: string): number | null;
	boolean(name: string): boolean | null;
	/** A channel option: its id and, when Discord resolved it, its type. */
	channel(name: string): { id: string; type: number | null } | null;
	role(name: string): { id: string } | null;
}

export interface CommandInteraction extends BaseInteraction {
	readonly kind: 'command';
	readonly commandName: string;
	/** The subcommand chosen, or null for a command without subcommands. */
	readonly subcommand: string | null;
	readonly options: CommandOptions;
	/** A modal must be the first response to its interaction: never defer before it. */
	showModal(modal: APIModalInteractionResponseCallbackData): Promise<void>;
}

export interface ComponentInteraction extends BaseInteraction {
	readonly kind: 'component';
	readonly customId: string;
	/** Discord's component type: 2 for a button, 3 to 8 for select menus. */
	readonly componentType: number;
	/** Acknowledges as an update of the message that holds the component. */
	deferUpdate(): Promise<void>;
	update(payload: MessagePayload): Promise<void>;
}

export interface ModalInteraction extends BaseInteraction {
	readonly kind: 'modal';
	readonly customId: string;
	/** A text input's value, or null when the form arrived without it. */
	field(customId: string): string | null;
}

export interface AutocompleteInteraction {
	readonly kind: 'autocomplete';
	readonly id: string;
	readonly userId: string;
	readonly guildId: string | null;
	readonly locale: string;
	/** The member's permissions in the channel (a guild autocomplete carries them as a command does). */
	readonly memberPermissions: bigint | null;
	readonly commandName: string;
	readonly subcommand: string | null;
	readonly options: CommandOptions;
	/** The option being typed and what is typed so far. */
	readonly focused: { name: string; value: string } | null;
	readonly acknowledgement: Acknowledgement | null;
	respond(choices: APIApplicationCommandOptionChoice[]): Promise<void>;
}

export type AnyInteraction = CommandInteraction | ComponentInteraction | ModalInteraction | AutocompleteInteraction;
export type RepliableInteraction = CommandInteraction | ComponentInteraction | ModalInteraction;
