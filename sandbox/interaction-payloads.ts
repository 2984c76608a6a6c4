import { BOT_PERMISSIONS, MEMBER_PERMISSIONS, buildMember, buildTextChannel, buildUser } from './fixtures.js';
import type { ApiChannel, ApiUser } from './fixtures.js';
import type { Json } from './types.js';

/** An option as a member filled it in; `type` is Discord's option type (3 string, 4 integer, 5 boolean, …). */
export interface CommandOptionInput {
	name: string;
	type: number;
	value?: string | number | boolean;
	focused?: boolean;
}

/** Who did it and where; `guildId: null` means a DM with the bot. */
export interface InteractionContext {
	guildId?: string | null;
	channelId?: string;
	userId?: string;
	/**
	 * The member's permissions in the channel; default: computed from their roles and the channel's overwrites
	 * (an ordinary member without Manage Server unless a test gave them roles).
	 */
	permissions?: bigint | string;
	/** Default: the user's locale (`setUser`), else `en-US`. */
	locale?: string;
	/** Default: the guild's preferred locale (`setGuildLocale`), else `en-US`. */
	guildLocale?: string;
}

export interface DispatchCommandOptions extends InteractionContext {
	name: string;
	options?: CommandOptionInput[];
	subcommand?: string;
	subcommandGroup?: string;
	/** Send as autocomplete (type 4) instead of a command; mark the focused option with `focused: true`. */
	autocomplete?: boolean;
}

export interface DispatchModalSubmitOptions extends InteractionContext {
	customId: string;
	fields: Record<string, string>;
	/** Set when the modal was opened from a component; the submit then carries that message. */
	message?: Json;
}

export interface DispatchComponentOptions extends InteractionContext {
	customId: string;
	/** The message holding the component; default: the sandbox's stored message of that id, or a synthetic one. */
	messageId?: string;
	/** 2 button (default), 3 string select, … */
	componentType?: number;
	values?: string[];
}

/** Resolved context: where the interaction happens, filled from the sandbox's fixtures. */
export interface ResolvedContext {
	guildId: string | null;
	channelId: string;
	user: ApiUser;
	permissions: string;
	locale: string;
	guildLocale: string;
	/** Guild interactions: the member's roles and join time, the channel as it stands, the bot's permissions there. */
	member?: { roles: string[]; joinedAt: string };
	channel?: ApiChannel;
	appPermissions?: string;
}

/** The part of INTERACTION_CREATE that discord.js needs besides `type` and `data`. */
export function buildInteractionBase(
	id: string,
	token: string,
	applicationId: string,
	ctx: ResolvedContext,
	attachmentSizeLimit: number,
): Json {
	const base: Json = {
		id,
		application_id: applicationId,
		token,
		version: 1,
		locale: ctx.locale,
		app_permissions: ctx.appPermissions ?? BOT_PERMISSIONS,
		entitlements: [],
		attachment_size_limit: attachmentSizeLimit,
		channel_id: ctx.channelId,
	};
	if (ctx.guildId) {
		base.guild_id = ctx.guildId;
		base.guild = { id: ctx.guildId, locale: ctx.guildLocale, features: [] };
		base.guild_locale = ctx.guildLocale;
		base.channel = {
			...(ctx.channel ?? buildTextChannel(ctx.channelId, ctx.guildId, 'channel', 0, null)),
			permissions: ctx.permissions,
		};
		const member = buildMember(ctx.user, ctx.member?.roles ?? [], ctx.member?.joinedAt ?? new Date(0).toISOString());
		base.member = { ...member, permissions: ctx.permissions };
		base.authorizing_integration_owners = { '0': ctx.guildId };
		base.context = 0;
	} else {
		base.channel = { id: ctx.channelId, type: 1, last_message_id: null, flags: 0, recipients: [ctx.user] };
		base.user = ctx.user;
		// In the bot's own DM the guild-install owner is reported as "0".
		base.authorizing_integration_owners = { '0': '0' };
		base.context = 1;
	}
	return base;
}

/** `data.options` as Discord nests them: a subcommand is option type 1 holding the options (group: type 2). */
export function buildCommandOptions(options: DispatchCommandOptions): Json[] {
	let nested: Json[] = (options.options ?? []).map((option) => ({ ...option }));
	if (options.subcommand) nested = [{ name: options.subcommand, type: 1, options: nested }];
	if (options.subcommandGroup) nested = [{ name: options.subcommandGroup, type: 2, options: nested }];
	return nested;
}

/** A message from the bot holding one component with `customId`, for a button pressed on no stored message. */
export function buildSyntheticComponentMessage(
	id: string,
	channelId: string,
	bot: ApiUser,
	customId: string,
	componentType: number,
): Json {
	const component =
		componentType === 2
			? { type: 2, id: 2, style: 1, custom_id: customId, label: 'Button' }
			: { type: componentType, id: 2, custom_id: customId, options: [{ label: 'Option', value: 'option' }] };
	return {
		id,
		type: 0,
		channel_id: channelId,
		author: bot,
		content: '',
		embeds: [],
		attachments: [],
		components: [{ type: 1, id: 1, components: [component] }],
		mentions: [],
		mention_roles: [],
		mention_everyone: false,
		pinned: false,
		tts: false,
		timestamp: new Date().toISOString(),
		edited_timestamp: null,
		flags: 0,
	};
}

export { MEMBER_PERMISSIONS, buildUser };
