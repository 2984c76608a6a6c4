import { createRecordStore, isSharedStore, onePerStore, recordLock } from '../core/record-store.js';
import type { Config } from '../config.js';
import { StorageUnavailableError } from '../errors.js';
import type { Coordinator } from '../core/claims.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import {
	GOALS_SCHEMA_VERSION,
	goalsKey,
	parseGoalsRecord,
	sortGoals,
	type Goal,
	type GoalOwner,
	type GoalsRecord,
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
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
	/** The bot's clock (tests inject it); default Date.now. */
	now?: () => number;
}

/**
 * How long a process that alone writes its store (SQLite) reuses the goals it read or wrote. Its own changes
 * replace them at once; the minute only bounds a change written to the file by another program (a migration).
 */
const GOALS_KEPT_MS = 60_000;

/** One goal store per opened store, so every command, route and watcher of a process shares its locks. */
export const goalStoreOf = onePerStore((ctx: GoalStoreContext): GoalStore => {
	// One process owns a SQLite file: keeping what it read or wrote is exact there (every /stats shows its owner's
	// goals, which would otherwise cost a store read each time).
	const cache = isSharedStore(ctx.config) ? undefined : { keptMs: GOALS_KEPT_MS, now: ctx.now ?? Date.now };
	const records = createRecordStore(ctx.stores, recordLock(ctx), {
		namespace: WATCH_NAMESPACE,
		parse: parseGoalsRecord,
		stored: (goals): GoalsRecord => ({ v: GOALS_SCHEMA_VERSION, goals }),
		cache,
	});
	return {
		read: async (owner) => (await records.get(goalsKey(owner))) ?? [],
		update: async (owner, change) =>
			(await records.update(goalsKey(owner), (current) => {
				const next = change(current ?? []);
				if (next === undefined) return undefined;
				return next.length === 0 ? null : sortGoals(next);
			})) ?? [],
	};
});

/**
 * The goals of the owner a stats target names, for a reply that shows them; none when the caller's context has no
 * store (a test of the embed alone) or the store cannot be read (the figures still answer). Any other failure is a
 * fault, and reaches the caller.
 */
export async function goalsForTarget(
	ctx: {
		stores?: GoalStoreContext['stores'];
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
		.catch((error: unknown) => {
			if (error instanceof StorageUnavailableError) return [];
			throw error;
		});
}
