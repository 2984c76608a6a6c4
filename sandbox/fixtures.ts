import { Permission } from './permissions.js';
import type { PermissionOverwrite } from './permissions.js';

export type ApiUser = ReturnType<typeof buildUser>;
export type ApiRole = ReturnType<typeof buildRole>;
export type ApiMember = ReturnType<typeof buildMember>;

/** Permissions of an ordinary member: view, send, embed, attach, read history, use commands; no Manage Server. */
export const MEMBER_PERMISSIONS = (1024n | 2048n | 16384n | 32768n | 65536n | 2147483648n).toString();
/**
 * What the bot's own role grants it on top of @everyone: external emojis, Manage Messages, and what a stat
 * channel needs (Manage Channels, Connect). With no overwrites this is its `app_permissions` everywhere.
 */
export const BOT_PERMISSIONS = (
	BigInt(MEMBER_PERMISSIONS) |
	Permission.UseExternalEmojis |
	Permission.ManageMessages |
	Permission.ManageChannels |
	Permission.Connect
).toString();

export function buildUser(id: string, username: string, bot = false) {
	return {
		id,
		username,
		global_name: bot ? null : username,
		discriminator: '0',
		avatar: null as string | null,
		avatar_decoration_data: null,
		banner: null,
		accent_color: null,
		public_flags: 0,
		flags: 0,
		bot,
		system: false,
		primary_guild: null,
		collectibles: null,
	};
}

/** Channel types the fixtures hold: text 0, voice 2, category 4. */
export type FixtureChannelType = 0 | 2 | 4;

export interface ApiChannel {
	id: string;
	type: FixtureChannelType;
	guild_id: string;
	name: string;
	position: number;
	parent_id: string | null;
	nsfw: boolean;
	permission_overwrites: PermissionOverwrite[];
	flags: number;
	[field: string]: unknown;
}

export function buildTextChannel(
	id: string,
	guildId: string,
	name: string,
	position: number,
	parentId: string | null,
): ApiChannel {
	return {
		id,
		type: 0,
		guild_id: guildId,
		name,
		position,
		parent_id: parentId,
		topic: null,
		nsfw: false,
		last_message_id: null,
		rate_limit_per_user: 0,
		permission_overwrites: [],
		flags: 0,
	};
}

export function buildVoiceChannel(
	id: string,
	guildId: string,
	name: string,
	position: number,
	parentId: string | null,
): ApiChannel {
	return {
		id,
		type: 2,
		guild_id: guildId,
		name,
		position,
		parent_id: parentId,
		nsfw: false,
		last_message_id: null,
		rate_limit_per_user: 0,
		bitrate: 64000,
		user_limit: 0,
		rtc_region: null,
		permission_overwrites: [],
		flags: 0,
	};
}

export function buildCategory(id: string, guildId: string, name: string, position: number): ApiChannel {
	return {
		id,
		type: 4,
		guild_id: guildId,
		name,
		position,
		parent_id: null,
		nsfw: false,
		permission_overwrites: [],
		flags: 0,
	};
}

export function buildRole(id: string, name: string, position: number, permissions: string, managed = false) {
	return {
		id,
		name,
		description: null,
		color: 0,
		colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
		hoist: false,
		icon: null,
		unicode_emoji: null,
		position,
		permissions,
		managed,
		mentionable: false,
		flags: 0,
	};
}

export function buildMember(user: ApiUser, roles: string[], joinedAt: string, nick: string | null = null) {
	return {
		user,
		nick,
		avatar: null,
		banner: null,
		roles,
		joined_at: joinedAt,
		premium_since: null,
		deaf: false,
		mute: false,
		flags: 0,
		pending: false,
		communication_disabled_until: null,
	};
}
