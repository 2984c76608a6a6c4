import { createRecordStore, isSharedStore, onePerStore, recordLock } from '../core/record-store.js';
import type { Config } from '../config.js';
import { StorageUnavailableError } from '../errors.js';
import type { Coordinator } from '../core/claims.js';
import { WATCH_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import {
	NOTES_SCHEMA_VERSION,
	notesKey,
	parseNotesRecord,
	sortNotes,
	type Note,
	type NoteOwner,
	type NotesRecord,
} from './note-record.js';

/** Notes live beside goals in the `watch` namespace, one entry per owner. */
export interface NoteStore {
	/** The owner's notes, oldest day first; frozen, as a process that keeps them hands the same list to every chart. */
	read(owner: NoteOwner): Promise<readonly Note[]>;
	/**
	 * Reads the owner's notes, lets `change` return the next list (or undefined to leave it) and writes it, under a
	 * lock every process on the store shares, so two members cannot pass the limit together. Returns what is stored.
	 */
	update(owner: NoteOwner, change: (notes: Note[]) => Note[] | undefined): Promise<Note[]>;
}

export interface NoteStoreContext {
	stores: Pick<Stores, 'watch' | 'backend' | 'namespace'>;
	coordinator: Pick<Coordinator, 'claim'>;
	config: Pick<Config, 'storeUrl'>;
	now?: () => number;
}

/** As goals: a process alone on its SQLite file keeps what it read or wrote; the minute bounds outside writes. */
const NOTES_KEPT_MS = 60_000;

/** One note store per opened store, so every command, route and job of a process shares its locks. */
export const noteStoreOf = onePerStore((ctx: NoteStoreContext): NoteStore => {
	// Frozen: every /stats of the owner reads their notes, and one kept list (never a copy) keys the chart's memo.
	const cache = isSharedStore(ctx.config)
		? undefined
		: { keptMs: NOTES_KEPT_MS, now: ctx.now ?? Date.now, frozen: true };
	const records = createRecordStore(ctx.stores, recordLock(ctx), {
		namespace: WATCH_NAMESPACE,
		parse: parseNotesRecord,
		stored: (notes): NotesRecord => ({ v: NOTES_SCHEMA_VERSION, notes }),
		cache,
	});
	return {
		read: async (owner) => (await records.get(notesKey(owner))) ?? [],
		update: async (owner, change) =>
			(await records.update(notesKey(owner), (current) => {
				const next = change(current ?? []);
				if (next === undefined) return undefined;
				return next.length === 0 ? null : sortNotes(next);
			})) ?? [],
	};
});

/** Whose charts a stats target draws: the member's for scope:me, the server's for scope:server. */
export function noteOwnerOf(target: {
	scope: 'me' | 'server';
	userId: string;
	guildId: string | null;
}): NoteOwner | null {
	if (target.scope === 'server') return target.guildId === null ? null : { scope: 'server', guildId: target.guildId };
	return target.userId === '' ? null : { scope: 'me', userId: target.userId };
}

/**
 * The notes a chart of the target draws: the server's on a server chart, the member's own on theirs, never the
 * other scope's. None when the caller's context has no store (a test of the embed alone) or the store cannot be
 * read (the chart still draws); any other failure reaches the caller.
 */
export async function notesForTarget(
	ctx: {
		stores?: NoteStoreContext['stores'];
		coordinator?: Pick<Coordinator, 'claim'>;
		config?: object;
		now?: () => number;
	},
	target: { scope: 'me' | 'server'; userId: string; guildId: string | null },
): Promise<readonly Note[]> {
	const { stores, coordinator, config, now } = ctx;
	const storeUrl = config && 'storeUrl' in config && typeof config.storeUrl === 'string' ? config.storeUrl : null;
	const owner = noteOwnerOf(target);
	if (!stores?.watch || !coordinator || storeUrl === null || owner === null) return [];
	return noteStoreOf({ stores, coordinator, config: { storeUrl }, now })
		.read(owner)
		.catch((error: unknown) => {
			if (error instanceof StorageUnavailableError) return [];
			throw error;
		});
}
