import { nextSnowflake } from './snowflake.js';

export interface FixtureShape {
	channelsPerGuild: number;
	rolesPerGuild: number;
	membersPerGuild: number;
}

export type ApiUser = ReturnType<typeof buildUser>;

/** Permissions of an ordinary member: view, send, embed, attach, read history, use commands; no Manage Server. */
export const MEMBER_PERMISSIONS = (1024n | 2048n | 16384n | 32768n | 65536n | 2147483648n).toString();
/** What the bot's own role grants it, reported as `app_permissions`. */
export const BOT_PERMISSIONS = (BigInt(MEMBER_PERMISSIONS) | 262144n | 8192n).toString();

export function buildUser(id: string, username: string, bot = false) {
	return {
		id,
		username,
		global_name: bot ? null : username,
		discriminator: '0',
		avatar: null,
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

export function buildTextChannel(id: string, guildId: string, name: string, position: number, parentId: string | null) {
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

function buildRole(id: string, name: string, position: number, permissions: string, managed = false) {
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

export function buildMember(user: ApiUser, roles: string[], joinedAt: string) {
	return {
		user,
		nick: null,
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

export interface GuildFixture {
	id: string;
	name: string;
	channelIds: string[];
	/** The first text channel: where interactions happen unless a test says otherwise. */
	defaultChannelId: string;
	/** Serialised GUILD_CREATE `d`, built on demand so thousands of guilds stay cheap until a client connects. */
	toGatewayJson(): string;
}

/** A guild with one category, `channelsPerGuild` text channels, `rolesPerGuild` roles (incl. @everyone) and members. */
export function buildGuild(index: number, bot: ApiUser, shape: FixtureShape): GuildFixture {
	const id = nextSnowflake();
	const categoryId = nextSnowflake();
	const channelIds = Array.from({ length: Math.max(1, shape.channelsPerGuild) }, () => nextSnowflake());
	const roleIds = Array.from({ length: Math.max(1, shape.rolesPerGuild) - 1 }, () => nextSnowflake());
	const memberIds = Array.from({ length: Math.max(0, shape.membersPerGuild - 1) }, () => nextSnowflake());
	const name = `Sandbox Guild ${index + 1}`;
	const toGatewayJson = (): string => {
		const joinedAt = new Date().toISOString();
		const botRoleId = roleIds[0];
		const roles = [buildRole(id, '@everyone', 0, MEMBER_PERMISSIONS)];
		roleIds.forEach((roleId, i) =>
			roles.push(
				buildRole(roleId, i === 0 ? bot.username : `role-${i}`, i + 1, i === 0 ? BOT_PERMISSIONS : '0', i === 0),
			),
		);
		const members = [buildMember(bot, botRoleId ? [botRoleId] : [], joinedAt)];
		memberIds.forEach((userId, i) => members.push(buildMember(buildUser(userId, `member${i + 1}`), [], joinedAt)));
		const category = { ...buildTextChannel(categoryId, id, 'Text Channels', 0, null), type: 4 };
		const channels = [
			category,
			...channelIds.map((c, i) => buildTextChannel(c, id, `channel-${i + 1}`, i, categoryId)),
		];
		return JSON.stringify({
			id,
			name,
			icon: null,
			splash: null,
			discovery_splash: null,
			banner: null,
			home_header: null,
			description: null,
			owner_id: memberIds[0] ?? bot.id,
			afk_channel_id: null,
			afk_timeout: 300,
			verification_level: 0,
			default_message_notifications: 0,
			explicit_content_filter: 0,
			mfa_level: 0,
			nsfw_level: 0,
			premium_tier: 0,
			premium_subscription_count: 0,
			premium_progress_bar_enabled: false,
			system_channel_id: channelIds[0],
			system_channel_flags: 0,
			rules_channel_id: null,
			public_updates_channel_id: null,
			safety_alerts_channel_id: null,
			vanity_url_code: null,
			preferred_locale: 'en-US',
			features: [],
			emojis: [],
			stickers: [],
			roles,
			application_id: null,
			max_members: 500000,
			max_video_channel_users: 25,
			joined_at: joinedAt,
			large: false,
			unavailable: false,
			member_count: members.length,
			members,
			channels,
			threads: [],
			presences: [],
			voice_states: [],
			stage_instances: [],
			guild_scheduled_events: [],
			soundboard_sounds: [],
		});
	};
	return { id, name, channelIds, defaultChannelId: channelIds[0] ?? categoryId, toGatewayJson };
}
