import type Keyv from 'keyv';
import type { RawEntry } from './raw-entry.js';

/** One opened STORE_URL: a Keyv per namespace plus the raw access the maintenance commands need. */
export interface StoreBackend {
	/** The Keyv of a namespace given to the opener (its full name, prefix included). */
	keyv(namespace: string): Keyv;
	/** Every entry of a namespace as stored, expired ones included, each page bound by the deadline. */
	list(namespace: string): AsyncIterable<RawEntry>;
	/** Writes an entry exactly as another backend listed it (the expiry inside `raw` is kept). */
	writeRaw(namespace: string, entry: RawEntry): Promise<void>;
	/**
	 * Writes what the store keeps beside its data back into it, so a deleted record leaves no copy behind: SQLite's
	 * WAL still holds the pages from before a delete until a checkpoint. Absent where nothing is kept aside.
	 */
	settle?(): Promise<void>;
	/** Finishes within a bounded time whatever the store does. */
	close(): Promise<void>;
}

export interface BackendOptions {
	deadlineMs: number;
	onError: (error: unknown) => void;
}

/** The Keyv of `namespace`, or an error naming a namespace the opener was not given (a programming error). */
export function pick<T>(byNamespace: Map<string, T>, namespace: string): T {
	const found = byNamespace.get(namespace);
	if (found === undefined) throw new Error(`namespace ${namespace} was not opened`);
	return found;
}
