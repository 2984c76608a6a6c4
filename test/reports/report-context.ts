// A BotContext for report tests: a real SQLite store and coordinator, stand-ins for the links, the stats
// endpoint and the chart renderer (the report code only reads their results).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKeyedMutex } from '../../src/store/locks.js';
import type { BotContext } from '../../src/discord/context.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import type { CommandInteraction, MessagePayload, Visibility } from '../../src/discord/interaction.js';
import type { LinkedKey, LinkStatus, LinkStore } from '../../src/links/link-model.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createLogger } from '../../src/logger.js';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import { KeyRejectedError } from '../../src/errors.js';
import { openCoordinator } from '../../src/store/coordination.js';
import { openStores } from '../../src/store/open-stores.js';
import { makeSnapshot } from '../history/snapshots.js';

export const GUILD = '100000000000000001';
export const ADMIN = '300000000000000001';
export const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
export const REJECTED_KEY = 'rejected-key-000000000000';

export interface ReportTestContext {
	ctx: BotContext;
	/** Server id → API key; a key equal to REJECTED_KEY is refused by the stand-in endpoint. */
	serverKeys: Map<string, string>;
	unreadable: Set<string>;
	/** Channel ids Discord answers as deleted; the others exist, named `name-of-<id>`. */
	deletedChannels: Set<string>;
	/** Channel id → the bot's permissions there as the bot token reads them; the others grant everything. */
	botPermissions: Map<string, bigint>;
	close(): Promise<void>;
}

const EVERY_PERMISSION = (1n << 53n) - 1n;

export async function openReportContext(): Promise<ReportTestContext> {
	const dir = mkdtempSync(join(tmpdir(), 'reports-'));
	const url = `sqlite://${join(dir, 'bot.sqlite')}`;
	const stores = await openStores(url);
	const coordinator = await openCoordinator(url);
	const serverKeys = new Map<string, string>();
	const unreadable = new Set<string>();
	const deletedChannels = new Set<string>();
	const botPermissions = new Map<string, bigint>();
	const status = (guildId: string): LinkStatus | null =>
		serverKeys.has(guildId)
			? {
					accountName: 'acme',
					linkedAt: 0,
					verified: true,
					linkedBy: ADMIN,
					keyHint: 'abcd',
					readable: !unreadable.has(guildId),
				}
			: null;
	const links = {
		getServerLink: async (guildId: string) => status(guildId),
		getServerKey: async (guildId: string): Promise<LinkedKey | null> => {
			const apiKey = serverKeys.get(guildId);
			const info = status(guildId);
			return apiKey && info ? { apiKey, info } : null;
		},
	} as unknown as LinkStore;
	const breakdown: Record<string, number> = {};
	for (let day = 1; day <= 30; day += 1) breakdown[`2026-11-${String(day).padStart(2, '0')}`] = day * 10;
	const renderer: ChartRenderer = { name: 'local', render: async () => PNG, close: async () => undefined };
	const ctx = {
		config: {} as BotContext['config'],
		links,
		stats: {
			fetchSnapshot: async (apiKey: string) => {
				if (apiKey === REJECTED_KEY) throw new KeyRejectedError(401);
				return {
					snapshot: makeSnapshot({ generatedAt: '2026-11-30T12:00:00Z', breakdown, sendsToday: 300 }),
					fetchedAt: Date.parse('2026-11-30T12:00:00Z'),
					isStale: false,
				};
			},
		},
		renderer,
		history: {} as BotContext['history'],
		coordinator,
		stores,
		cooldowns: {} as BotContext['cooldowns'],
		settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex() }),
		guildApi: {
			guildName: async () => 'Report Guild',
			describeChannel: async (_guildId: string, channelId: string) =>
				deletedChannels.has(channelId)
					? { state: 'deleted' as const, name: null }
					: { state: 'exists' as const, name: `name-of-${channelId}` },
			channelPermissions: async (_guildId: string, channelId: string) =>
				botPermissions.get(channelId) ?? EVERY_PERMISSION,
		} as unknown as BotContext['guildApi'],
		log: createLogger('silent'),
		metrics: createMetrics({ commands: [], collectDefault: false }),
	} satisfies BotContext;
	return {
		ctx,
		serverKeys,
		unreadable,
		deletedChannels,
		botPermissions,
		close: async () => {
			await coordinator.close();
			await stores.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

export interface RecordedCommand extends CommandInteraction {
	replies: { payload: MessagePayload; visibility: Visibility | 'edit' }[];
}

export interface CommandInput {
	subcommand: 'add' | 'remove' | 'list';
	strings?: Record<string, string>;
	integers?: Record<string, number>;
	channel?: { id: string; type: number | null };
	guildId?: string | null;
	channelId?: string;
	memberPermissions?: bigint | null;
	appPermissions?: bigint | null;
	locale?: string;
	createdAt?: number;
}

/** A /report interaction as both transports hand it to the handler, keeping every answer. */
export function reportCommand(input: CommandInput): RecordedCommand {
	const replies: RecordedCommand['replies'] = [];
	let acknowledgement: CommandInteraction['acknowledgement'] = null;
	return {
		kind: 'command',
		id: '1',
		commandName: 'report',
		subcommand: input.subcommand,
		userId: ADMIN,
		guildId: input.guildId === undefined ? GUILD : input.guildId,
		channelId: input.channelId ?? '200000000000000009',
		locale: input.locale ?? 'en-US',
		guildLocale: 'de',
		memberPermissions: input.memberPermissions === undefined ? 0x20n : input.memberPermissions,
		memberRoles: [],
		appPermissions: input.appPermissions ?? null,
		createdAt: input.createdAt ?? Date.parse('2026-11-30T12:00:00Z'),
		get acknowledgement() {
			return acknowledgement;
		},
		options: {
			string: (name) => input.strings?.[name] ?? null,
			integer: (name) => input.integers?.[name] ?? null,
			number: (name) => input.integers?.[name] ?? null,
			boolean: () => null,
			channel: (name) => (name === 'channel' ? (input.channel ?? null) : null),
			role: () => null,
		},
		replies,
		reply: async (payload, visibility) => {
			acknowledgement = 'reply';
			replies.push({ payload, visibility });
		},
		defer: async () => {
			acknowledgement = 'defer';
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
