import type KeyvSqlite from '@keyv/sqlite';

export const SQLITE_PURGE_INTERVAL_MS = 10 * 60 * 1000;

// Keyv stores each entry as JSON `{"value":…,"expires":<epoch ms>}` and only deletes an expired one
// when it is read again; cache entries of keys nobody asks for again would stay in the file for good.
// json_valid guards the DELETE against a row that is not JSON (json_extract would fail the statement).
const deleteExpired = (table: string) => `DELETE FROM ${table}
	WHERE (CASE WHEN json_valid(value) THEN json_extract(value, '$.expires') END) < ?
	RETURNING key`;

/** Deletes every row of the SQLite file whose Keyv `expires` is before `now`; returns how many went. */
export async function purgeExpiredSqliteRows(adapter: KeyvSqlite, now = Date.now()): Promise<number> {
	const rows = (await adapter.query(deleteExpired(adapter.opts.table ?? 'keyv'), now)) as unknown[];
	return rows.length;
}

/** Runs the purge every `intervalMs` without keeping the process alive; `stop` waits for a running purge. */
export function startSqlitePurge(
	adapter: KeyvSqlite,
	onError: (error: unknown) => void,
	intervalMs = SQLITE_PURGE_INTERVAL_MS,
): { stop: () => Promise<void> } {
	let running: Promise<unknown> = Promise.resolve();
	const timer = setInterval(() => {
		running = purgeExpiredSqliteRows(adapter).catch(onError);
	}, intervalMs);
	timer.unref();
	return {
		stop: async () => {
			clearInterval(timer);
			await running;
		},
	};
}
