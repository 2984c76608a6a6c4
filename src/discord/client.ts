import {
	Client,
	GatewayIntentBits,
	LimitedCollection,
	Options,
	type CacheFactory,
	type CacheWithLimitsOptions,
	type GuildMember,
	type User,
} from 'discord.js';
import { filterIntendedCacheWarnings } from './cache-warning-filter.js';

filterIntendedCacheWarnings();

/**
 * A client for an interaction-only bot: the Guilds intent and no caches it does not read.
 * Interactions carry everything the handlers use (ids, member permissions, locale), so users,
 * members, messages, channels and roles are never needed from the cache. Channels and roles are
 * the bulk of GUILD_CREATE; discord.js documents limiting them as unsupported because cached
 * lookups like `guild.channels` go empty, which this bot never reads.
 */
export function createDiscordClient(options: { apiUrl: string; shards?: GatewayShards }): Client {
	return new Client({
		intents: [GatewayIntentBits.Guilds],
		// Always explicit: left at the defaults, discord.js would parse SHARDS/SHARD_COUNT from the environment itself.
		shards: options.shards?.ids ?? [0],
		shardCount: options.shards?.total ?? 1,
		rest: { api: options.apiUrl, globalRequestsPerSecond: INTERACTION_REQUESTS_PER_SECOND },
		allowedMentions: { parse: [] },
		makeCache: makeCache(),
		sweepers: Options.DefaultSweeperSettings,
	});
}

/**
 * The caches of `CACHE_LIMITS`, except that every manager limited to nothing shares one empty collection: each
 * guild has a dozen managers, and a collection of its own per manager (an empty Map each) was about a third of
 * the heap a guild costs. A collection of maxSize 0 never stores an entry (discord.js's LimitedCollection drops
 * every set), so there is nothing for two managers to share by mistake.
 */
export function makeCache(): CacheFactory {
	const limited = Options.cacheWithLimits(CACHE_LIMITS);
	const nothing = new LimitedCollection<unknown, unknown>({ maxSize: 0 });
	const limits = CACHE_LIMITS as Record<string, unknown>;
	return ((managerType, holds, manager) => {
		const setting = limits[manager.name] ?? limits[managerType.name];
		return setting === 0 ? nothing : limited(managerType, holds, manager);
	}) as CacheFactory;
}

/** The shards one client connects: `ids` out of `total` in the whole bot. */
export interface GatewayShards {
	ids: number[];
	total: number;
}

/**
 * @discordjs/rest throttles every non-callback request to Discord's global 50/s, interaction edits
 * and follow-ups included, so past 25 /stats a second members waited up to a second for the edit.
 * Discord exempts interaction endpoints from the global limit, and this bot makes no other calls
 * once logged in; a real global 429 from Discord is still honoured.
 */
export const INTERACTION_REQUESTS_PER_SECOND = 1000;

// Typed loosely on purpose: discord.js leaves the channel and role managers out of its option type.
const CACHE_LIMITS = {
	ApplicationCommandManager: 0,
	ApplicationEmojiManager: 0,
	AutoModerationRuleManager: 0,
	BaseGuildEmojiManager: 0,
	ChannelManager: 0,
	DMMessageManager: 0,
	EntitlementManager: 0,
	GuildBanManager: 0,
	GuildChannelManager: 0,
	GuildEmojiManager: 0,
	GuildForumThreadManager: 0,
	GuildInviteManager: 0,
	GuildMemberManager: { maxSize: 0, keepOverLimit: (member: GuildMember) => member.id === member.client.user.id },
	GuildMessageManager: 0,
	GuildScheduledEventManager: 0,
	GuildStickerManager: 0,
	GuildTextThreadManager: 0,
	MessageManager: 0,
	PermissionOverwriteManager: 0,
	PresenceManager: 0,
	ReactionManager: 0,
	ReactionUserManager: 0,
	RoleManager: 0,
	StageInstanceManager: 0,
	ThreadManager: 0,
	ThreadMemberManager: 0,
	UserManager: { maxSize: 0, keepOverLimit: (user: User) => user.id === user.client.user.id },
	VoiceStateManager: 0,
} as CacheWithLimitsOptions;
