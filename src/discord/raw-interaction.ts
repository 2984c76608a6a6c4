import {
	InteractionResponseType,
	InteractionType,
	MessageFlags,
	type APIApplicationCommandAutocompleteInteraction,
	type APIChatInputApplicationCommandInteraction,
	type APIInteraction,
	type APIMessageComponentInteraction,
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
	ComponentInteraction,
	CommandInteraction,
	ModalInteraction,
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
			return commandInteraction(raw as APIChatInputApplicationCommandInteraction, responder);
		case InteractionType.MessageComponent:
			return componentInteraction(raw, responder);
		case InteractionType.ModalSubmit:
			return modalInteraction(raw, responder);
		case InteractionType.ApplicationCommandAutocomplete:
			return autocompleteInteraction(raw, responder);
		default:
			return null;
	}
}

type RepliableRaw =
	APIChatInputApplicationCommandInteraction | APIMessageComponentInteraction | APIModalSubmitInteraction;

/** The first-response bookkeeping and the reply methods every repliable interaction shares. */
function baseInteraction(raw: RepliableRaw, responder: InteractionResponder) {
	const address: InteractionAddress = { id: raw.id, token: raw.token, applicationId: raw.application_id };
	let acknowledgement: Acknowledgement | null = null;
	const acknowledge = async (as: Acknowledgement, send: () => Promise<void>): Promise<void> => {
		if (acknowledgement !== null) throw new AlreadyAcknowledgedError(`already acknowledged as ${acknowledgement}`);
		acknowledgement = as;
		await send();
	};
	const member = raw.member ?? null;
	const base: BaseInteraction = {
		id: raw.id,
		userId: member?.user.id ?? raw.user?.id ?? '',
		guildId: raw.guild_id ?? null,
		channelId: raw.channel?.id ?? null,
		locale: raw.locale ?? 'en-US',
		guildLocale: raw.guild_locale ?? null,
		memberPermissions: member ? BigInt(member.permissions) : null,
		memberRoles: member ? member.roles : null,
		appPermissions: raw.app_permissions ? BigInt(raw.app_permissions) : null,
		createdAt: Number((BigInt(raw.id) >> 22n) + DISCORD_EPOCH_MS),
		get acknowledgement() {
			return acknowledgement;
		},
		reply: (payload, visibility) => {
			const { body, files } = toMessageBody(payload, visibility);
			return acknowledge('reply', () =>
				responder.respond(address, { type: InteractionResponseType.ChannelMessageWithSource, data: body }, files),
			);
		},
		defer: (visibility) =>
			acknowledge('defer', () =>
				responder.respond(
					address,
					{
						type: InteractionResponseType.DeferredChannelMessageWithSource,
						// discord.js sends 0 for a public defer; Discord takes both 0 and no flags.
						data: { flags: (visibility === 'private' ? MessageFlags.Ephemeral : 0) as MessageFlags },
					},
					[],
				),
			),
		editReply: async (payload) => {
			const { body, files } = toMessageBody(payload, null);
			await responder.editOriginal(address, body, files);
		},
		followUp: async (payload, visibility) => {
			const { body, files } = toMessageBody(payload, visibility);
			await responder.followUp(address, body, files);
		},
	};
	return { base, address, acknowledge };
}

function commandInteraction(
	raw: APIChatInputApplicationCommandInteraction,
	responder: InteractionResponder,
): CommandInteraction {
	const { base, acknowledge, address } = baseInteraction(raw, responder);
	const { subcommand, leaves } = flattenOptions(raw.data.options);
	return Object.assign(Object.create(base) as BaseInteraction, {
		kind: 'command' as const,
		commandName: raw.data.name,
		subcommand,
		options: readOptions(leaves, raw.data.resolved),
		showModal: (modal: Parameters<CommandInteraction['showModal']>[0]) =>
			acknowledge('modal', () => responder.respond(address, { type: InteractionResponseType.Modal, data: modal }, [])),
	});
}

function componentInteraction(
	raw: APIMessageComponentInteraction,
	responder: InteractionResponder,
): ComponentInteraction {
	const { base, acknowledge, address } = baseInteraction(raw, responder);
	return Object.assign(Object.create(base) as BaseInteraction, {
		kind: 'component' as const,
		customId: raw.data.custom_id,
		componentType: raw.data.component_type,
		deferUpdate: () =>
			acknowledge('defer-update', () =>
				responder.respond(address, { type: InteractionResponseType.DeferredMessageUpdate }, []),
			),
		update: (payload: Parameters<ComponentInteraction['update']>[0]) => {
			const { body, files } = toMessageBody(payload, null);
			return acknowledge('update', () =>
				responder.respond(address, { type: InteractionResponseType.UpdateMessage, data: body }, files),
			);
		},
	});
}

function modalInteraction(raw: APIModalSubmitInteraction, responder: InteractionResponder): ModalInteraction {
	const { base } = baseInteraction(raw, responder);
	const values = new Map<string, string>();
	collectTextInputs(raw.data.components, values);
	return Object.assign(Object.create(base) as BaseInteraction, {
		kind: 'modal' as const,
		customId: raw.data.custom_id,
		field: (customId: string) => values.get(customId) ?? null,
	});
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
