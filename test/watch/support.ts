// A BotContext for stat channel and alert tests: a real SQLite store and coordinator (claims expire by the test's
// clock), a stand-in stats endpoint whose figures the test sets, and a GuildApi that records renames and posts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BotContext } from '../../src/discord/context.js';
import type {
	AutocompleteInteraction,
	CommandInteraction,
	MessagePayload,
	Visibility,
} from '../../src/discord/interaction.js';
import type { GuildApi } from '../../src/guild-api.js';
import { createHistoryStore } from '../../src/history/history-store.js';
import type { LinkedKey, LinkStatus, LinkStore } from '../../src/links/link-model.js';
import { createLogger } from '../../src/logger.js';
import type { ChannelMessage } from '../../src/message.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { makeSnapshot } from '../history/snapshots.js';

export const GUILD = '100000000000000001';
export const ADMIN = '300000000000000001';
export const VOICE = '200000000000000002';
export const TEXT = '200000000000000003';
export const SERVER_KEY = 'server-key-0000000000000000';

/** The figures the stand-in endpoint answers with; absent ones are null. */
export interface Figures {
	generatedAt: string;
	sendsToday?: number;
	sendsAllTime?: number;
	joinsAllTime?: number;
	failedAllTime?: number;
	breakdown?: Record<string, number>;
}

export function snapshotOf(figures: Figures): StatsSnapshot {
	const base = makeSnapshot({
		generatedAt: figures.generatedAt,
		breakdown: figures.breakdown,
		sendsToday: figures.sendsToday ?? null,
		failedAllTime: figures.failedAllTime ?? null,
		joinsAllTime: figures.joinsAllTime ?? null,
	});
	return { ...base, sends: { ...base.sends, allTime: figures.sendsAllTime ?? null } };
}

export interface RecordingGuildApi extends GuildApi {
	renames: { channelId: string; name: string; at: number }[];
	posts: { channelId: string; message: ChannelMessage; nonce: string | undefined; at: number }[];
	/** The bot's permission bits per channel; a channel not listed is gone. */
	permissions: Map<string, bigint>;
	/** Set to make the next renames or posts fail. */
	failRename: ((channelId: string) => Error | null) | null;
	failPost: ((channelId: string) => Error | null) | null;
}

export function recordingGuildApi(now: () => number): RecordingGuildApi {
	const api: RecordingGuildApi = {
		renames: [],
		posts: [],
		permissions: new Map(),
		failRename: null,
		failPost: null,
		postMessage: async (channelId, message, options) => {
			const failure = api.failPost?.(channelId);
			if (failure) throw failure;
			api.posts.push({ channelId, message, nonce: options?.nonce, at: now() });
		},
		createMessage: async (channelId, message, options) => {
			await api.postMessage(channelId, message, options);
			return String(api.posts.length);
		},
		editMessage: async () => undefined,
		messageState: async () => 'exists',
		sendDirectMessage: async () => undefined,
		roleState: async () => 'exists',
		describeRole: async () => ({ state: 'exists', managed: false }),
		guildName: async () => 'Watch Guild',
		describeChannel: async (_guildId, channelId) =>
			api.permissions.has(channelId)
				? { state: 'exists', name: `name-of-${channelId}` }
				: { state: 'deleted', name: null },
		channelState: async () => 'exists',
		renameChannel: async (channelId, name) => {
			const failure = api.failRename?.(channelId);
			if (failure) throw failure;
			api.renames.push({ channelId, name, at: now() });
		},
		channelPermissions: async (_guildId, channelId) => {
			const bits = api.permissions.get(channelId);
			if (bits === undefined) {
				const { ChannelRefusedError } = await import('../../src/errors.js');
				throw new ChannelRefusedError('channelGone');
			}
			return bits;
		},
	};
	return api;
}

export interface WatchTestContext {
	ctx: BotContext;
	guildApi: RecordingGuildApi;
	/** What the stand-in endpoint answers now. */
	setFigures(figures: (now: number) => Figures): void;
	fetches: number[];
	close(): Promise<void>;
}

export async function openWatchContext(
	now: () => number,
	options: { storeUrl?: string; prefix?: string } = {},
): Promise<WatchTestContext> {
	const dir = mkdtempSync(join(tmpdir(), 'watch-'));
	const url = options.storeUrl ?? `sqlite://${join(dir, 'bot.sqlite')}`;
	const stores = await openStores(url, { namespacePrefix: options.prefix });
	const coordinator = await openCoordinator(url, { namespacePrefix: options.prefix, now });
	const status: LinkStatus = {
		accountName: 'acme',
		linkedAt: 0,
		verified: true,
		linkedBy: ADMIN,
		keyHint: '0000',
		readable: true,
	};
	const links = {
		getServerLink: async (guildId: string) => (guildId === GUILD ? status : null),
		getServerKey: async (guildId: string): Promise<LinkedKey | null> =>
			guildId === GUILD ? { apiKey: SERVER_KEY, info: status } : null,
		getUserKey: async () => null,
	} as unknown as LinkStore;
	let figures: (at: number) => Figures = (at) => ({ generatedAt: new Date(at).toISOString(), sendsToday: 0 });
	const fetches: number[] = [];
	const history = createHistoryStore({ keyv: stores.history, now });
	const guildApi = recordingGuildApi(now);
	const ctx = {
		config: {
			storeUrl: url,
			statChannelMinutes: 10,
			alertCheckMinutes: 15,
			historyDays: 400,
		} as BotContext['config'],
		links,
		stats: {
			fetchSnapshot: async (apiKey: string) => {
				if (apiKey !== SERVER_KEY) throw new Error('unexpected key');
				fetches.push(now());
				const snapshot = snapshotOf(figures(now()));
				await history.record(snapshot, now());
				return { snapshot, fetchedAt: now(), isStale: false };
			},
		},
		renderer: { name: 'none', render: async () => null, close: async () => undefined },
		history,
		coordinator,
		stores,
		cooldowns: {} as BotContext['cooldowns'],
		settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }),
		guildApi,
		log: createLogger('silent'),
		metrics: createMetrics({ commands: [], collectDefault: false }),
	} satisfies BotContext;
	return {
		ctx,
		guildApi,
		fetches,
		setFigures: (next) => {
			figures = next;
		},
		close: async () => {
			await coordinator.close();
			await stores.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

export interface RecordedCommand extends CommandInteraction {
	replies: { payload: MessagePayload; visibility: Visibility | 'edit' }[];
	/** Every text the member was shown. */
	readonly texts: string[];
}

export interface CommandInput {
	commandName: 'statchannel' | 'alert';
	subcommand: 'add' | 'remove' | 'list';
	strings?: Record<string, string>;
	numbers?: Record<string, number>;
	channel?: { id: string; type: number | null };
	guildId?: string | null;
	memberPermissions?: bigint | null;
	locale?: string;
}

export const MANAGE_GUILD = 0x20n;

/** Autocomplete of `option` as typed so far; resolves to the choices the handler offered. */
export async function autocomplete(
	handler: (interaction: AutocompleteInteraction, ctx: BotContext) => Promise<void>,
	ctx: BotContext,
	commandName: 'statchannel' | 'alert',
	option: string,
	typed: string,
): Promise<{ name: string; value: string | number }[]> {
	let answered: { name: string; value: string | number }[] = [];
	const interaction = {
		kind: 'autocomplete',
		id: '2',
		userId: ADMIN,
		guildId: GUILD,
		locale: 'en-US',
		// The choices name the server's records: offered only to those who may manage them, as the command is.
		memberPermissions: MANAGE_GUILD,
		commandName,
		subcommand: 'remove',
		focused: { name: option, value: typed },
		acknowledgement: null,
		respond: async (choices: typeof answered) => {
			answered = choices;
		},
	} as unknown as AutocompleteInteraction;
	await handler(interaction, ctx);
	return answered;
}

/** A /statchannel or /alert interaction as both transports hand it to the handler, keeping every answer. */
export function watchCommand(input: CommandInput): RecordedCommand {
	const replies: RecordedCommand['replies'] = [];
	let acknowledgement: CommandInteraction['acknowledgement'] = null;
	return {
		kind: 'command',
		id: '1',
		commandName: input.commandName,
		subcommand: input.subcommand,
		userId: ADMIN,
		guildId: input.guildId === undefined ? GUILD : input.guildId,
		channelId: '200000000000000009',
		locale: input.locale ?? 'en-US',
		guildLocale: 'en-US',
		memberPermissions: input.memberPermissions === undefined ? MANAGE_GUILD : input.memberPermissions,
		memberRoles: [],
		appPermissions: null,
		createdAt: Date.now(),
		get acknowledgement() {
			return acknowledgement;
		},
		get texts() {
			return replies.map((reply) => reply.payload.content ?? '');
		},
		options: {
			string: (name) => input.strings?.[name] ?? null,
			integer: (name) => input.numbers?.[name] ?? null,
			number: (name) => input.numbers?.[name] ?? null,
			boolean: () => null,
			channel: (name) => (name === 'channel' ? (input.channel ?? null) : null),
			role: () => null,
		},
		replies,
		reply: async (payload, visibility) => {
			acknowledgement = 'reply';
			replies.push({ payload, visibility });
		},
		defer: async (visibility) => {
			acknowledgement = 'defer';
			replies.push({ payload: {}, visibility });
		},
		editReply: async (payload) => {
			replies.push({ payload, visibility: 'edit' });
		},
		followUp: async (payload, visibility) => {
			replies.push({ payload, visibility });
		},
		showModal: async () => undefined,
	};
}
