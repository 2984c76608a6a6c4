import {
	DiscordAPIError,
	PermissionFlagsBits,
	RateLimitError,
	REST,
	Routes,
	type APIGuildMember,
	type APIMessage,
	type APIRole,
	type RateLimitData,
} from 'discord.js';
import { API } from './core-api.js';
import type { Config } from '../config.js';
import {
	ChannelRefusedError,
	DirectMessagesClosedError,
	MessageGoneError,
	RenameRateLimitedError,
	type ChannelRefusal,
} from '../errors.js';
import type { ChannelDescription, GuildApi } from '../guild-api.js';
import type { MessagePayload } from './interaction.js';
import { toMessageBody } from './message-body.js';
import { INTERACTION_REQUESTS_PER_SECOND } from './client.js';
import { applyRestBudget, processRestBudget, type RestBudget } from './rest-budget.js';

/**
 * The one REST client for the bot token's calls outside interactions (reports, audit lines, role and
 * channel checks): no gateway needed, so every transport and process has one, and @discordjs/rest keeps
 * Discord's rate limits across all of them.
 */
export function createBotRest(
	config: Pick<Config, 'discordApiUrl' | 'discordToken'> & Partial<Pick<Config, 'discordRestPerSecond'>>,
	/** The budget shared by every process on the store (openRestBudget); default: this process's own. */
	budget: RestBudget = processRestBudget(config.discordRestPerSecond),
): REST {
	// Every call of both clients draws from the one budget before @discordjs/rest sees it.
	const rest = applyRestBudget(new REST({ api: config.discordApiUrl }).setToken(config.discordToken), budget);
	renameClients.set(rest, applyRestBudget(createRenameRest(config), budget));
	return rest;
}

/** Each bot REST client's companion for channel renames (see createRenameRest). */
const renameClients = new WeakMap<REST, REST>();

// A global 429 is not the channel's: @discordjs/rest waits it out and renames then, never a refresh later.
const isRename = (data: RateLimitData) =>
	!data.global && data.method.toUpperCase() === 'PATCH' && data.route === '/channels/:id';

/**
 * A second client of the same REST module, for channel renames only. Discord allows two renames of a channel
 * per 10 minutes and answers the third with a 429 whose `retry_after` is about ten minutes while its headers
 * still show requests remaining; the default client would then sleep those ten minutes holding its queue.
 * This one rejects instead (the stat channels keep their own budget and wait in the store), and being
 * separate it never queues a rename behind a report or an audit line, nor those behind a rename.
 */
function createRenameRest(config: Pick<Config, 'discordApiUrl' | 'discordToken'>): REST {
	return new REST({ api: config.discordApiUrl, rejectOnRateLimit: isRename, retries: 1 }).setToken(config.discordToken);
}

/**
 * REST for interaction callbacks, edits and follow-ups only, which Discord exempts from the global limit;
 * background posts go through createBotRest and keep it.
 */
export function createInteractionRest(config: Pick<Config, 'discordApiUrl' | 'discordToken'>): REST {
	return new REST({ api: config.discordApiUrl, globalRequestsPerSecond: INTERACTION_REQUESTS_PER_SECOND }).setToken(
		config.discordToken,
	);
}

/** Where a post may say it is a retry of one already sent: Discord then keeps one message per nonce. */
export interface ChannelPostOptions {
	nonce?: string;
	/** With `nonce`: Discord returns the earlier message instead of posting twice (within a few minutes). */
	enforceNonce?: boolean;
}

/** Posts a message in a channel; nobody is pinged, files go as multipart. Rejects with Discord's error. */
export async function postChannelMessage(
	rest: REST,
	channelId: string,
	payload: MessagePayload,
	options: ChannelPostOptions = {},
): Promise<APIMessage> {
	const { body, files } = toMessageBody(payload, 'public');
	const extra =
		options.nonce === undefined ? {} : { nonce: options.nonce, enforce_nonce: options.enforceNonce ?? true };
	return (await rest.post(Routes.channelMessages(channelId), {
		body: { ...body, ...extra },
		files: files.length > 0 ? files : undefined,
	})) as APIMessage;
}

// Discord's JSON error codes for a channel that is gone and for a bot that may not act in it.
const UNKNOWN_CHANNEL = 10_003;
const UNKNOWN_MESSAGE = 10_008;
const UNKNOWN_GUILD = 10_004;
const MISSING_ACCESS = 50_001;
const MISSING_PERMISSIONS = 50_013;
/** 403 on a DM: the member shares no server with the bot or does not accept DMs from server members. */
const CANNOT_MESSAGE_USER = 50_007;

/** Discord's answers that no retry would change, as the core's reason; null for anything else. */
export function channelRefusalOf(error: unknown): ChannelRefusal | null {
	if (!(error instanceof DiscordAPIError)) return null;
	const code = Number(error.code);
	if (code === UNKNOWN_CHANNEL || code === UNKNOWN_GUILD || error.status === 404) return 'channelGone';
	if (code === MISSING_ACCESS || code === MISSING_PERMISSIONS || error.status === 403) return 'missingPermissions';
	return null;
}

/** A deleted message is MessageGoneError, a refusing channel ChannelRefusedError; anything else unchanged. */
function messageErrorOf(error: unknown): unknown {
	if (error instanceof DiscordAPIError && Number(error.code) === UNKNOWN_MESSAGE) {
		return new MessageGoneError({ cause: error });
	}
	const refusal = channelRefusalOf(error);
	return refusal === null ? error : new ChannelRefusedError(refusal, { cause: error });
}

/** A server's name changes rarely; an hour-old name in a chart title is fine and saves a call per chart. */
export const GUILD_NAME_TTL_MS = 60 * 60 * 1000;
/** A failed read is not retried on every chart for a minute, so a Discord outage costs no extra calls. */
const GUILD_NAME_RETRY_MS = 60 * 1000;
/** The reply waits at most this for a name it does not have yet; without it, the chart says "server account". */
const GUILD_NAME_TIMEOUT_MS = 2000;
/** Entries kept at most; past it the oldest go first (a process serves many servers, names are small). */
const GUILD_NAME_CACHE_SIZE = 10_000;

export interface BotGuildApiOptions {
	/** Epoch ms; tests move it to expire cached names. */
	now?: () => number;
}

/** The core's GuildApi over the bot's REST client; Discord's refusals become ChannelRefusedError. */
export function botGuildApi(rest: REST, options: BotGuildApiOptions = {}): GuildApi {
	const api = new API(rest);
	const now = options.now ?? Date.now;
	const names = new Map<string, { name: Promise<string | null>; expiresAt: number }>();
	const readName = async (guildId: string): Promise<string | null> => {
		try {
			const guild = await api.guilds.get(guildId, {}, { signal: AbortSignal.timeout(GUILD_NAME_TIMEOUT_MS) });
			return guild.name;
		} catch {
			return null;
		}
	};
	const renameRest = renameClients.get(rest);
	const dmChannels = directMessageChannels(rest);
	let botUserId: Promise<string> | null = null;
	const ownId = async () => {
		botUserId ??= api.users.getCurrent().then(
			(user) => user.id,
			(error: unknown) => {
				botUserId = null;
				throw error;
			},
		);
		return botUserId;
	};
	const guildApi: GuildApi = {
		async postMessage(channelId, message, options = {}) {
			try {
				await postChannelMessage(rest, channelId, message, { nonce: options.nonce });
			} catch (error) {
				const refusal = channelRefusalOf(error);
				throw refusal === null ? error : new ChannelRefusedError(refusal, { cause: error });
			}
		},
		async createMessage(channelId, message, options = {}) {
			try {
				return (await postChannelMessage(rest, channelId, message, { nonce: options.nonce })).id;
			} catch (error) {
				throw messageErrorOf(error);
			}
		},
		async editMessage(channelId, messageId, message) {
			// `files` always given: the body then lists the attachments to keep (only the new ones), so the old
			// chart goes instead of piling up beside the new one.
			const { body, files } = toMessageBody({ ...message, files: message.files ?? [] }, null);
			try {
				await rest.patch(Routes.channelMessage(channelId, messageId), { body, files });
			} catch (error) {
				throw messageErrorOf(error);
			}
		},
		async messageState(channelId, messageId) {
			try {
				await rest.get(Routes.channelMessage(channelId, messageId));
				return 'exists';
			} catch (error) {
				const mapped = messageErrorOf(error);
				if (mapped instanceof MessageGoneError) return 'deleted';
				// Without Read Message History (Discord answers 50001 or 50013) this is a refusal like any other: a
				// board needs it, and a read refused at every refresh would count towards Discord's ban on refusals.
				throw mapped;
			}
		},
		async sendDirectMessage(userId, message, options = {}) {
			try {
				const channelId = await dmChannels.open(userId);
				await postChannelMessage(rest, channelId, message, { nonce: options.nonce });
			} catch (error) {
				if (error instanceof DiscordAPIError && Number(error.code) === CANNOT_MESSAGE_USER) {
					throw new DirectMessagesClosedError({ cause: error });
				}
				throw error;
			}
		},
		async roleState(guildId, roleId) {
			try {
				const roles = await api.guilds.getRoles(guildId);
				return roles.some((role) => role.id === roleId) ? 'exists' : 'deleted';
			} catch {
				// A route or permission problem says nothing about the role; the gateway's event still will.
				return 'unknown';
			}
		},
		async describeRole(guildId, roleId) {
			try {
				const role = (await api.guilds.getRoles(guildId)).find((candidate) => candidate.id === roleId);
				return role ? { state: 'exists', managed: role.managed } : { state: 'deleted', managed: false };
			} catch {
				return { state: 'unknown', managed: false };
			}
		},
		async channelState(guildId, channelId) {
			return (await describeChannel(api, guildId, channelId)).state;
		},
		guildName(guildId) {
			const cached = names.get(guildId);
			if (cached && cached.expiresAt > now()) return cached.name;
			names.delete(guildId);
			if (names.size >= GUILD_NAME_CACHE_SIZE) names.delete(names.keys().next().value ?? '');
			// The promise is cached, so concurrent charts of one server share one call.
			const entry = { name: readName(guildId), expiresAt: now() + GUILD_NAME_TTL_MS };
			names.set(guildId, entry);
			void entry.name.then((name) => {
				if (name === null) entry.expiresAt = now() + GUILD_NAME_RETRY_MS;
			});
			return entry.name;
		},
		describeChannel: async (guildId, channelId) => describeChannel(api, guildId, channelId),
		async renameChannel(channelId, name) {
			if (!renameRest) throw new Error('renameChannel needs a REST client made by createBotRest');
			try {
				await renameRest.patch(Routes.channel(channelId), { body: { name } });
			} catch (error) {
				if (error instanceof RateLimitError) throw new RenameRateLimitedError(error.retryAfter, { cause: error });
				const refusal = channelRefusalOf(error);
				throw refusal === null ? error : new ChannelRefusedError(refusal, { cause: error });
			}
		},
		async channelPermissions(guildId, channelId) {
			try {
				const channel = await api.channels.get(channelId);
				if (!('guild_id' in channel) || channel.guild_id !== guildId) throw new ChannelRefusedError('channelGone');
				const [roles, member] = await Promise.all([
					api.guilds.getRoles(guildId),
					rest.get(Routes.guildMember(guildId, await ownId())) as Promise<APIGuildMember>,
				]);
				const overwrites = 'permission_overwrites' in channel ? (channel.permission_overwrites ?? []) : [];
				return computeChannelPermissions(guildId, roles, member, overwrites);
			} catch (error) {
				const refusal = channelRefusalOf(error);
				throw refusal === null ? error : new ChannelRefusedError(refusal, { cause: error });
			}
		},
	};
	guildApiRests.set(guildApi, rest);
	return guildApi;
}

/** DM channel ids never change for a member: opened once per process, then reused (bounded). */
const DM_CHANNEL_CACHE_SIZE = 10_000;

function directMessageChannels(rest: REST) {
	const ids = new Map<string, string>();
	return {
		async open(userId: string): Promise<string> {
			const known = ids.get(userId);
			if (known) return known;
			const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as { id: string };
			if (ids.size >= DM_CHANNEL_CACHE_SIZE) ids.delete(ids.keys().next().value ?? '');
			ids.set(userId, channel.id);
			return channel.id;
		},
	};
}

const guildApiRests = new WeakMap<GuildApi, REST>();

/** The REST client behind a botGuildApi, so other readers (the dashboard) share its budget and rate limits. */
export function botRestOf(api: GuildApi): REST | undefined {
	return guildApiRests.get(api);
}

async function describeChannel(api: API, guildId: string, channelId: string): Promise<ChannelDescription> {
	try {
		const channel = await api.channels.get(channelId);
		if (!('guild_id' in channel) || channel.guild_id !== guildId) return { state: 'deleted', name: null };
		return { state: 'exists', name: 'name' in channel && typeof channel.name === 'string' ? channel.name : null };
	} catch (error) {
		return { state: channelRefusalOf(error) === 'channelGone' ? 'deleted' : 'unknown', name: null };
	}
}

interface Overwrite {
	id: string;
	type: number;
	allow: string;
	deny: string;
}

const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/**
 * Discord's permission computation for a member in a channel: @everyone and the member's roles, then the
 * channel's @everyone overwrite, its role overwrites together, and the member's own overwrite, each deny
 * before allow. Administrator grants everything, overwrites included.
 */
export function computeChannelPermissions(
	guildId: string,
	roles: readonly Pick<APIRole, 'id' | 'permissions'>[],
	member: Pick<APIGuildMember, 'roles'> & { user?: { id: string } },
	overwrites: readonly Overwrite[],
): bigint {
	const roleBits = new Map(roles.map((role) => [role.id, BigInt(role.permissions)]));
	let base = roleBits.get(guildId) ?? 0n;
	for (const roleId of member.roles) base |= roleBits.get(roleId) ?? 0n;
	if ((base & PermissionFlagsBits.Administrator) !== 0n) return ALL_PERMISSIONS;
	const apply = (bits: bigint, overwrite: { allow: bigint; deny: bigint }) =>
		(bits & ~overwrite.deny) | overwrite.allow;
	const bitsOf = (overwrite: Overwrite) => ({ allow: BigInt(overwrite.allow), deny: BigInt(overwrite.deny) });
	const everyone = overwrites.find((overwrite) => overwrite.id === guildId);
	if (everyone) base = apply(base, bitsOf(everyone));
	const roleOverwrites = overwrites.filter(
		(overwrite) => overwrite.type === 0 && overwrite.id !== guildId && member.roles.includes(overwrite.id),
	);
	const merged = roleOverwrites.map(bitsOf).reduce((a, b) => ({ allow: a.allow | b.allow, deny: a.deny | b.deny }), {
		allow: 0n,
		deny: 0n,
	});
	base = apply(base, merged);
	const own = overwrites.find((overwrite) => overwrite.type === 1 && overwrite.id === member.user?.id);
	if (own) base = apply(base, bitsOf(own));
	return base;
}
