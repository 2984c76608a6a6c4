import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { BackendOptions, StoreBackend } from './store-backend.js';
import { pick } from './store-backend.js';
import { sqliteFileOf } from '../store-url.js';
import { withDeadline } from './with-deadline.js';
import { DeadlineStore } from './deadline-adapter.js';
import type { RawEntry } from './raw-entry.js';
import { startSqlitePurge } from './sqlite-purge.js';
import { createFolderOf } from './sqlite-folder.js';

const LIST_PAGE = 500;

/**
 * One connection per namespace on one file (WAL, so they do not block each other). Expired entries
 * are purged every 10 minutes until close(): Keyv deletes one only when it is read again.
 */
export async function openSqliteBackend(
	storeUrl: string,
	namespaces: string[],
	options: BackendOptions,
): Promise<StoreBackend> {
	const { deadlineMs, onError } = options;
	const file = sqliteFileOf(storeUrl);
	createFolderOf(file);
	// The first connection creates the table and switches a fresh file to WAL alone: two doing it at once can fail
	// with SQLITE_BUSY, which the busy timeout does not cover. The others then find both done and open together,
	// which saves start-up a few milliseconds per namespace.
	const openAdapter = async (): Promise<KeyvSqlite> => {
		// Waiting for a lock longer than an operation's deadline would only hide the wait.
		const adapter = new KeyvSqlite({ uri: storeUrl, busyTimeout: deadlineMs });
		// The adapter reports a failed open both by rejecting and by emitting; the rejection is what we act on.
		adapter.on('error', () => undefined);
		await withDeadline(adapter.query('PRAGMA journal_mode = WAL'), deadlineMs);
		// Deleted rows are overwritten, not left in the file's free pages: a forgotten member's id must not stay.
		await withDeadline(adapter.query('PRAGMA secure_delete = ON'), deadlineMs);
		return adapter;
	};
	const [firstNamespace, ...otherNamespaces] = namespaces;
	const adapters = new Map<string, KeyvSqlite>();
	if (firstNamespace !== undefined) adapters.set(firstNamespace, await openAdapter());
	const others = await Promise.allSettled(otherNamespaces.map(openAdapter));
	otherNamespaces.forEach((namespace, index) => {
		const opened = others[index];
		if (opened?.status === 'fulfilled') adapters.set(namespace, opened.value);
	});
	const failed = others.find((result) => result.status === 'rejected');
	if (failed) {
		await Promise.all(
			[...adapters.values()].map((adapter) => withDeadline(adapter.disconnect(), deadlineMs).catch(() => undefined)),
		);
		throw failed.reason;
	}
	const keyvs = new Map(
		[...adapters].map(([namespace, adapter]) => {
			const iterator = async function* (): AsyncGenerator<[string, string]> {
				for await (const { key, raw } of listRows(adapter, `${namespace}:`, deadlineMs)) {
					yield [`${namespace}:${key}`, raw];
				}
			};
			const store = new DeadlineStore(adapter, deadlineMs, iterator);
			return [namespace, new Keyv({ store, namespace, throwOnErrors: true })];
		}),
	);
	const first = adapters.values().next().value;
	// One purge covers the whole file, every namespace.
	const purge = first ? startSqlitePurge(first, onError) : null;
	let closing: Promise<void> | null = null;

	return {
		keyv: (namespace) => pick(keyvs, namespace),
		// Keyv prefixes keys with `namespace:` on this backend.
		list: (namespace) => listRows(pick(adapters, namespace), `${namespace}:`, deadlineMs),
		writeRaw: async (namespace, { key, raw }) => {
			await withDeadline(pick(adapters, namespace).set(`${namespace}:${key}`, raw), deadlineMs);
		},
		settle: async () => {
			// TRUNCATE empties the WAL once its pages are in the file (deleted rows there overwritten by secure_delete).
			if (first) await withDeadline(first.query('PRAGMA wal_checkpoint(TRUNCATE)'), deadlineMs);
		},
		close: async () => {
			closing ??= (async () => {
				await purge?.stop();
				// The last connection to close writes the WAL into the database file, so the file alone holds
				// everything once the bot stops (a copy of it is a whole backup). Connections closing together could
				// each see another still open and leave the last writes in the WAL; an explicit checkpoint first waited
				// on the others' busy timeout. So the others close together (bounded by one deadline), then the first
				// alone, as the last; one that fails leaves the WAL, which the next open replays.
				const [last, ...rest] = [...adapters.values()];
				await Promise.all(rest.map(async (adapter) => withDeadline(adapter.disconnect(), deadlineMs).catch(onError)));
				if (last) await withDeadline(last.disconnect(), deadlineMs).catch(onError);
			})();
			await closing;
		},
	};
}

/** Rows whose key starts with `keyPrefix`, that prefix removed, in key order; one bounded query per page. */
async function* listRows(adapter: KeyvSqlite, keyPrefix: string, deadlineMs: number): AsyncGenerator<RawEntry> {
	const pattern = `${keyPrefix.replace(/[\\%_]/g, '\\$&')}%`;
	let after = '';
	for (;;) {
		const rows = (await withDeadline(
			adapter.query(
				`SELECT key, value FROM ${adapter.opts.table} WHERE key LIKE ? ESCAPE '\\' AND key > ? ORDER BY key LIMIT ${LIST_PAGE}`,
				pattern,
				after,
			),
			deadlineMs,
		)) as Array<{ key: string; value: string }>;
		for (const row of rows) yield { key: row.key.slice(keyPrefix.length), raw: row.value };
		const last = rows.at(-1);
		if (!last || rows.length < LIST_PAGE) return;
		after = last.key;
	}
}
