import {
	InteractionResponseType,
	InteractionType,
	MessageFlags,
	type APIApplicationCommandAutocompleteInteraction,
	type APIChatInputApplicationCommandInteraction,
	type APIInteraction,
	type APIMessageComponentInteraction,
	type APIModalInteractionResponseCallbackData,
	type APIModalSubmitInteraction,
} from 'discord.js';
import { toMessageBody } from './message-body.js';
import { flattenOptions, readOptions } from './command-options.js';
import type { InteractionAddress, InteractionResponder } from './responder.js';
import type {
	Acknowledgement,
	AnyInteraction,
	AutocompleteInteraction,
	BaseInteraction,
	CommandInteraction,
	CommandOptions,
	ComponentInteraction,
	MessagePayload,
	ModalInteraction,
	Visibility,
} from './interaction.js';

const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/** Thrown when a handler tries a second first response; Discord would answer 40060. */
export class AlreadyAcknowledgedError extends Error {
	override name = 'AlreadyAcknowledgedError';
}

/**
 * Wraps a raw interaction payload (as the gateway dispatches it and as Discord POSTs it) in the
 * transport-neutral interface. Returns null for interactions the bot does not handle (PING, menus).
 */
export function fromRawInteraction(raw: APIInteraction, responder: InteractionResponder): AnyInteraction | null {
	switch (raw.type) {
		case InteractionType.ApplicationCommand:
			// Context-menu commands are not registered; they still reach the router, which answers them.
			return new RawCommand(raw as APIChatInputApplicationCommandInteraction, responder);
		case InteractionType.MessageComponent:
			return new RawComponent(raw, responder);
		case InteractionType.ModalSubmit:
			return new RawModal(raw, responder);
		case InteractionType.ApplicationCommandAutocomplete:
			return autocompleteInteraction(raw, responder);
		default:
			return null;
	}
}

type RepliableRaw =
	APIChatInputApplicationCommandInteraction | APIMessageComponentInteraction | APIModalSubmitInteraction;

/**
 * The first-response bookkeeping and the reply methods every repliable interaction shares. Classes rather than
 * objects of closures: one is built for every interaction, and their methods are shared.
 */
abstract class RawRepliable implements BaseInteraction {
	readonly id: string;
	readonly userId: string;
	readonly guildId: string | null;
	readonly channelId: string | null;
	readonly locale: string;
	readonly guildLocale: string | null;
	readonly memberPermissions: bigint | null;
	readonly memberRoles: readonly string[] | null;
	readonly appPermissions: bigint | null;
	readonly createdAt: number;
	protected readonly address: InteractionAddress;
	// A plain field, not #private: timeResponses layers an object over the interaction, and the getter below is
	// then read with that layer as `this`.
	protected firstResponse: Acknowledgement | null = null;

	constructor(
		raw: RepliableRaw,
		protected readonly responder: InteractionResponder,
	) {
		const member = raw.member ?? null;
		this.id = raw.id;
		this.userId = member?.user.id ?? raw.user?.id ?? '';
		this.guildId = raw.guild_id ?? null;
		this.channelId = raw.channel?.id ?? null;
		this.locale = raw.locale ?? 'en-US';
		this.guildLocale = raw.guild_locale ?? null;
		this.memberPermissions = member ? BigInt(member.permissions) : null;
		this.memberRoles = member ? member.roles : null;
		this.appPermissions = raw.app_permissions ? BigInt(raw.app_permissions) : null;
		this.createdAt = Number((BigInt(raw.id) >> 22n) + DISCORD_EPOCH_MS);
		this.address = { id: raw.id, token: raw.token, applicationId: raw.application_id };
	}

	get acknowledgement(): Acknowledgement | null {
		return this.firstResponse;
	}

	async reply(payload: MessagePayload, visibility: Visibility): Promise<void> {
		const { body, files } = toMessageBody(payload, visibility);
		this.acknowledgeAs('reply');
		await this.responder.respond(
			this.address,
			{ type: InteractionResponseType.ChannelMessageWithSource, data: body },
			files,
		);
	}

	async defer(visibility: Visibility): Promise<void> {
		this.acknowledgeAs('defer');
		await this.responder.respond(
			this.address,
			{
				type: InteractionResponseType.DeferredChannelMessageWithSource,
				// discord.js sends 0 for a public defer; Discord takes both 0 and no flags.
				data: { flags: (visibility === 'private' ? MessageFlags.Ephemeral : 0) as MessageFlags },
			},
			[],
		);
	}

	async editReply(payload: MessagePayload): Promise<void> {
		const { body, files } = toMessageBody(payload, null);
		await this.responder.editOriginal(this.address, body, files);
	}

	async followUp(payload: MessagePayload, visibility: Visibility): Promise<void> {
		const { body, files } = toMessageBody(payload, visibility);
		await this.responder.followUp(this.address, body, files);
	}

	/** Takes the one first response Discord allows; a second is refused before anything is sent. */
	protected acknowledgeAs(as: Acknowledgement): void {
		if (this.firstResponse !== null)
			throw new AlreadyAcknowledgedError(`already acknowledged as ${this.firstResponse}`);
		this.firstResponse = as;
	}
}

class RawCommand extends RawRepliable implements CommandInteraction {
	readonly kind = 'command' as const;
	readonly commandName: string;
	readonly subcommand: string | null;
	readonly options: CommandOptions;

	constructor(raw: APIChatInputApplicationCommandInteraction, responder: InteractionResponder) {
		super(raw, responder);
		const { subcommand, leaves } = flattenOptions(raw.data.options);
		this.commandName = raw.data.name;
		this.subcommand = subcommand;
		this.options = readOptions(leaves, raw.data.resolved);
	}

	async showModal(modal: APIModalInteractionResponseCallbackData): Promise<void> {
		this.acknowledgeAs('modal');
		await this.responder.respond(this.address, { type: InteractionResponseType.Modal, data: modal }, []);
	}
}

class RawComponent extends RawRepliable implements ComponentInteraction {
	readonly kind = 'component' as const;
	readonly customId: string;
	readonly componentType: number;

	constructor(raw: APIMessageComponentInteraction, responder: InteractionResponder) {
		super(raw, responder);
		this.customId = raw.data.custom_id;
		this.componentType = raw.data.component_type;
	}

	async deferUpdate(): Promise<void> {
		this.acknowledgeAs('defer-update');
		await this.responder.respond(this.address, { type: InteractionResponseType.DeferredMessageUpdate }, []);
	}

	async update(payload: MessagePayload): Promise<void> {
		const { body, files } = toMessageBody(payload, null);
		this.acknowledgeAs('update');
		await this.responder.respond(this.address, { type: InteractionResponseType.UpdateMessage, data: body }, files);
	}
}

class RawModal extends RawRepliable implements ModalInteraction {
	readonly kind = 'modal' as const;
	readonly customId: string;
	private readonly values = new Map<string, string>();

	constructor(raw: APIModalSubmitInteraction, responder: InteractionResponder) {
		super(raw, responder);
		this.customId = raw.data.custom_id;
		collectTextInputs(raw.data.components, this.values);
	}

	field(customId: string): string | null {
		return this.values.get(customId) ?? null;
	}
}

/** Text inputs sit in action rows, or in label components on newer clients: walk both shapes. */
function collectTextInputs(components: unknown, into: Map<string, string>): void {
	if (!Array.isArray(components)) return;
	for (const component of components as Record<string, unknown>[]) {
		if (typeof component.custom_id === 'string' && typeof component.value === 'string') {
			into.set(component.custom_id, component.value);
		}
		collectTextInputs(component.components, into);
		if (component.component) collectTextInputs([component.component], into);
	}
}

function autocompleteInteraction(
	raw: APIApplicationCommandAutocompleteInteraction,
	responder: InteractionResponder,
): AutocompleteInteraction {
	const address: InteractionAddress = { id: raw.id, token: raw.token, applicationId: raw.application_id };
	const { subcommand, leaves } = flattenOptions(raw.data.options);
	const focused = leaves.find((option) => 'focused' in option && option.focused);
	let acknowledgement: Acknowledgement | null = null;
	return {
		kind: 'autocomplete',
		id: raw.id,
		userId: raw.member?.user.id ?? raw.user?.id ?? '',
		guildId: raw.guild_id ?? null,
		locale: raw.locale ?? 'en-US',
		memberPermissions: raw.member ? BigInt(raw.member.permissions) : null,
		commandName: raw.data.name,
		subcommand,
		options: readOptions(leaves, raw.data.resolved),
		focused: focused && 'value' in focused ? { name: focused.name, value: String(focused.value) } : null,
		get acknowledgement() {
			return acknowledgement;
		},
		async respond(choices) {
			if (acknowledgement !== null) throw new AlreadyAcknowledgedError('autocomplete already answered');
			acknowledgement = 'autocomplete';
			await responder.respond(
				address,
				{ type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: choices.slice(0, 25) } },
				[],
			);
		},
	};
}
