import type Keyv from 'keyv';
import type { Config } from '../config.js';
import type { Coordinator } from '../core/claims.js';
import { claimLock, createKeyedMutex } from '../core/claims.js';
import type { Stores } from '../store/open-stores.js';
import { asStorageUnavailable } from '../store/with-deadline.js';
import { storeSchemeOf } from '../store-url.js';
import {
	GOALS_SCHEMA_VERSION,
	goalsKey,
	parseGoalsRecord,
	sortGoals,
	type Goal,
	type GoalOwner,
} from './goal-record.js';

/** Goals live beside the stat channels, alerts and boards in the `watch` namespace, one entry per owner. */
export interface GoalStore {
	/** The owner's goals, sends before joins, months before weeks. */
	read(owner: GoalOwner): Promise<Goal[]>;
	/**
	 * Reads the owner's goals, lets `change` return the next list (or undefined to leave it) and writes it, under a
	 * lock every process on the store shares, so two members cannot pass the limit together. Returns what is stored.
	 */
	update(owner: GoalOwner, change: (goals: Goal[]) => Goal[] | undefined): Promise<Goal[]>;
}

export interface GoalStoreContext {
	stores: Pick<Stores, 'watch'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
	/** The bot's clock (tests inject it); default Date.now. */
	now?: () => number;
}

const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
	try {
		return await operation();
	} catch (error) {
		throw asStorageUnavailable(error);
	}
};

/** One goal store per opened store, so every command, route and watcher of a process shares its locks. */
const goalStores = new WeakMap<object, GoalStore>();

export function goalStoreOf(ctx: GoalStoreContext): GoalStore {
	let store = goalStores.get(ctx.stores);
	if (!store) {
		// One process owns a SQLite file: an in-process lock is exact there, and so is keeping what it read or wrote
		// (every /stats shows its owner's goals, which would otherwise cost a store read each time).
		const shared = storeSchemeOf(ctx.config.storeUrl) !== 'sqlite';
		store = shared
			? createGoalStore(ctx.stores.watch, claimLock(ctx.coordinator), 0, Date.now)
			: createGoalStore(ctx.stores.watch, createKeyedMutex(), GOALS_KEPT_MS, ctx.now ?? Date.now);
		goalStores.set(ctx.stores, store);
	}
	return store;
}

/**
 * How long a process that alone writes its store (SQLite) reuses the goals it read or wrote. Its own changes
 * replace them at once; the minute only bounds a change written to the file by another program (a migration).
 */
const GOALS_KEPT_MS = 60_000;

/** Owners whose goals are kept at most; past it the oldest entry goes. */
const MAX_KEPT_OWNERS = 10_000;

function createGoalStore(
	keyv: Keyv,
	lock: <T>(key: string, fn: () => Promise<T>) => Promise<T>,
	keptMs: number,
	now: () => number,
): GoalStore {
	const kept = createKeptGoals(keptMs, now);
	const readStored = async (key: string): Promise<Goal[]> => {
		const writesBefore = kept.writes;
		const goals = parseGoalsRecord(await storage(async () => keyv.get(key)));
		// A write that landed while this read was out may have made its answer old: it is used, not kept.
		if (kept.writes === writesBefore) kept.set(key, goals);
		return goals;
	};
	const write = async (key: string, operation: () => Promise<unknown>, goals: Goal[]): Promise<void> => {
		kept.forget(key);
		try {
			await storage(operation);
		} finally {
			// Written or not (a failed write may still have landed), what was kept is dropped.
			kept.forget(key);
		}
		kept.set(key, goals);
	};
	return {
		read: async (owner) => {
			const key = goalsKey(owner);
			return kept.get(key) ?? readStored(key);
		},
		update: async (owner, change) =>
			lock(goalsKey(owner), async () => {
				const key = goalsKey(owner);
				// Under the lock the store itself is read, as the rule the change checks needs the record as it is.
				const current = await readStored(key);
				const next = change(current);
				if (next === undefined) return current;
				if (next.length === 0) {
					await write(key, async () => keyv.delete(key), []);
					return [];
				}
				const goals = sortGoals(next);
				await write(key, async () => keyv.set(key, { v: GOALS_SCHEMA_VERSION, goals }), goals);
				return goals;
			}),
	};
}

/**
 * Goals by store key, each with when it was kept (nothing is kept when `keptMs` is 0); `writes` counts the writes
 * begun. Each answer is a copy, so a caller changing its list or goals cannot change what the next one reads.
 */
function createKeptGoals(keptMs: number, now: () => number) {
	const entries = new Map<string, { goals: readonly Goal[]; at: number }>();
	return {
		writes: 0,
		get(key: string): Goal[] | undefined {
			const entry = entries.get(key);
			if (!entry) return undefined;
			if (now() - entry.at < keptMs) return entry.goals.map((goal) => ({ ...goal }));
			entries.delete(key);
			return undefined;
		},
		set(key: string, goals: readonly Goal[]): void {
			if (keptMs <= 0) return;
			entries.delete(key);
			entries.set(key, { goals: goals.map((goal) => ({ ...goal })), at: now() });
			if (entries.size > MAX_KEPT_OWNERS) entries.delete(entries.keys().next().value as string);
		},
		forget(key: string): void {
			this.writes += 1;
			entries.delete(key);
		},
	};
}

/**
 * The goals of the owner a stats target names, for a reply that shows them; none when the caller's context has no
 * store (a test of the embed alone) or the store cannot be read (the figures still answer).
 */
export async function goalsForTarget(
	ctx: {
		stores?: Pick<Stores, 'watch'>;
		coordinator?: Pick<Coordinator, 'claim'>;
		config?: object;
		now?: () => number;
	},
	target: { scope: 'me' | 'server'; userId: string; guildId: string | null },
): Promise<Goal[]> {
	const { stores, coordinator, config, now } = ctx;
	const storeUrl = config && 'storeUrl' in config && typeof config.storeUrl === 'string' ? config.storeUrl : null;
	if (!stores?.watch || !coordinator || storeUrl === null) return [];
	const owner: GoalOwner | null =
		target.scope === 'server'
			? target.guildId === null
				? null
				: { scope: 'server', guildId: target.guildId }
			: target.userId === ''
				? null
				: { scope: 'me', userId: target.userId };
	if (owner === null) return [];
	return goalStoreOf({ stores, coordinator, config: { storeUrl }, now })
		.read(owner)
		.catch(() => []);
}
