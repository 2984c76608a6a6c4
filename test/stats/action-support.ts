// The core's services for unit tests of the actions, without Discord or HTTP: a real SQLite store (links sealed by
// the real link store, history, settings), a stats source that knows a few keys, and a GuildApi that records
// what would be posted and says which roles and channels Discord reports deleted.
import assert from 'node:assert/strict';
import type { Actor } from '../../src/core/actor.js';
import { KeyRejectedError, UserFacingError } from '../../src/errors.js';
import type { GuildApi, ResourceState } from '../../src/guild-api.js';
import { createHistoryStore } from '../../src/history/history-store.js';
import { createLinkStore, verifyWithStats } from '../../src/links/link-store.js';
import { createLogger } from '../../src/logger.js';
import { createSettingsStore } from '../../src/settings/settings-store.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { Cooldowns } from '../../src/store/cooldowns.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { makeSnapshot } from '../history/snapshots.js';
import { sqliteBackend, type OpenedBackend } from '../links/backends.js';

export const GUILD = '100000000000000001';
export const ADMIN = '300000000000000001';
export const MEMBER = '300000000000000002';
export const AUDIT_CHANNEL = '200000000000000001';
/** The bot's clock, pinned: 2026-11-23 12:00 UTC. */
export const NOW = Date.UTC(2026, 10, 23, 12, 0);
/** `{{when}}` of an audit line written at NOW. */
export const WHEN = `<t:${NOW / 1000}:F>`;

/** For `assert.rejects`: a refusal with this catalogue key (and, when given, exactly these values). */
export const refusedWith = (key: string, vars?: Record<string, unknown>) => (error: unknown) => {
	if (!(error instanceof UserFacingError) || error.key !== key) return false;
	if (vars !== undefined) assert.deepEqual(error.vars, vars);
	return true;
};

export const admin = (origin: Actor['origin'] = 'discord'): Actor => ({
	userId: ADMIN,
	canManageServer: true,
	roleIds: [],
	origin,
});
export const member = (origin: Actor['origin'] = 'discord'): Actor => ({
	userId: MEMBER,
	canManageServer: false,
	roleIds: [],
	origin,
});

export interface ActionTestContext {
	ctx: Pick<CoreContext, 'links' | 'stores' | 'history' | 'settings' | 'guildApi' | 'log' | 'now' | 'cooldowns'>;
	/** Key -> the account the stats API knows it as; any other key is rejected as a 401 would. */
	accounts: Map<string, string>;
	/** What was posted to each channel, in order. */
	posts: { channelId: string; content: string }[];
	/** Roles and channels Discord reports deleted. */
	deleted: Set<string>;
	/** Roles Discord reports as a bot's or an integration's own. */
	managed: Set<string>;
	logs: string[];
	verifyCalls: number;
	/** Every byte the SQLite store wrote, as text to search. */
	dumpStore(): Promise<string>;
	close(): Promise<void>;
}

export async function openActionContext(): Promise<ActionTestContext> {
	const opened: OpenedBackend = await sqliteBackend.open();
	const { stores } = opened;
	const now = () => NOW;
	const logs: string[] = [];
	const log = createLogger('debug', { write: (line: string) => logs.push(line) });
	const test: ActionTestContext = {
		ctx: undefined as never,
		accounts: new Map(),
		posts: [],
		deleted: new Set(),
		managed: new Set(),
		logs,
		verifyCalls: 0,
		dumpStore: () => opened.dumpRaw(),
		close: () => opened.cleanup(),
	};
	const stats = {
		verifyKey: async (apiKey: string): Promise<StatsSnapshot> => {
			test.verifyCalls += 1;
			const user = test.accounts.get(apiKey);
			if (user === undefined) throw new KeyRejectedError(401);
			return makeSnapshot({ generatedAt: new Date(NOW).toISOString(), user });
		},
	};
	const stateOf = async (id: string): Promise<ResourceState> => (test.deleted.has(id) ? 'deleted' : 'exists');
	const guildApi = {
		postMessage: async (channelId, message) => {
			test.posts.push({ channelId, content: message.content ?? '' });
		},
		roleState: async (_guildId, roleId) => stateOf(roleId),
		describeRole: async (_guildId, roleId) => ({ state: await stateOf(roleId), managed: test.managed.has(roleId) }),
		channelState: async (_guildId, channelId) => stateOf(channelId),
	} as Pick<GuildApi, 'postMessage' | 'roleState' | 'describeRole' | 'channelState'> as GuildApi;
	test.ctx = {
		links: createLinkStore({ keyv: stores.links, secret: Buffer.alloc(32, 0xa5), verifyKey: verifyWithStats(stats) }),
		stores,
		history: createHistoryStore({ keyv: stores.history, now }),
		settings: createSettingsStore({ keyv: stores.settings, withLock: createKeyedMutex(), now }),
		guildApi,
		log,
		now,
		// No cooldown unless a test sets one: most tests link the same member more than once.
		cooldowns: new Cooldowns(0, now),
	};
	return test;
}

/** The audit lines posted so far. */
export const auditLines = (test: ActionTestContext): string[] =>
	test.posts.filter((post) => post.channelId === AUDIT_CHANNEL).map((post) => post.content);
