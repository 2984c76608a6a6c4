import { fixtureSnowflake, parseFixtureSnowflake } from './snowflake.js';

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

/** How many ids a guild of `shape` derives from its timestamp (guild, category, channels, roles, members). */
export function idsPerGuild(shape: FixtureShape): number {
	const { channelsPerGuild, rolesPerGuild, membersPerGuild } = shape;
	return 2 + Math.max(1, channelsPerGuild) + Math.max(1, rolesPerGuild) - 1 + Math.max(0, membersPerGuild - 1);
}

/**
 * A guild with one category, `channelsPerGuild` text channels, `rolesPerGuild` roles (incl. @everyone) and members.
 * Every id derives from the guild's own timestamp (guilds get consecutive ones, so the sharding formula spreads them
 * evenly) and only the id is kept: 10,000 guilds cost about a MiB until a client connects.
 */
export class GuildFixture {
	readonly id: string;
	/** The first text channel: where interactions happen unless a test says otherwise. */
	readonly defaultChannelId: string;

	constructor(
		readonly index: number,
		/** `guild_id >> 22`, the number Discord's sharding formula takes modulo the shard count. */
		readonly shardKey: number,
		private readonly bot: ApiUser,
		private readonly shape: FixtureShape,
	) {
		this.id = fixtureSnowflake(shardKey, 0);
		this.defaultChannelId = fixtureSnowflake(shardKey, 2);
	}

	get name(): string {
		return `Sandbox Guild ${this.index + 1}`;
	}

	/** The text channels (the category excluded). */
	get channelIds(): string[] {
		return this.range(2, this.channelCount);
	}

	/** Whether `channelId` is one of this guild's text channels. */
	hasChannel(channelId: string): boolean {
		const parsed = parseFixtureSnowflake(channelId);
		return parsed?.ms === this.shardKey && parsed.increment >= 2 && parsed.increment < 2 + this.channelCount;
	}

	/** The name GUILD_CREATE gives one of this guild's text channels (`channel-1` is the default channel). */
	channelName(channelId: string): string {
		return `channel-${(parseFixtureSnowflake(channelId)?.increment ?? 2) - 1}`;
	}

	/** The guild's roles as `GET /guilds/{id}/roles` returns them. */
	roles(): unknown[] {
		return (JSON.parse(this.toGatewayJson()) as { roles: unknown[] }).roles;
	}

	/** Serialised GUILD_CREATE `d`, built on demand so thousands of guilds stay cheap until a client connects. */
	toGatewayJson(): string {
		const { id, name, bot, shape } = this;
		const channelCount = this.channelCount;
		const roleCount = Math.max(1, shape.rolesPerGuild) - 1;
		const firstRole = 2 + channelCount;
		const categoryId = fixtureSnowflake(this.shardKey, 1);
		const roleIds = this.range(firstRole, roleCount);
		const memberIds = this.range(firstRole + roleCount, shape.membersPerGuild - 1);
		const channelIds = this.channelIds;
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
	}

	private get channelCount(): number {
		return Math.max(1, this.shape.channelsPerGuild);
	}

	private range(from: number, count: number): string[] {
		return Array.from({ length: Math.max(0, count) }, (_, i) => fixtureSnowflake(this.shardKey, from + i));
	}
}
