import type Database from 'better-sqlite3';

const SCHEMA_VERSION = 2;
/** How long a command waits for another one's write lock (a long import's final copy) before it gives up. */
export const BUSY_TIMEOUT_MS = 60_000;

// Totals live on the account row so all_time needs no scan. daily_rollups is WITHOUT ROWID with
// primary key (account_id, day): the table is its own covering index, so a stats request reads
// at most 30 adjacent rows however many events the account has. The events index holds kind too, so
// the raw aggregation (the benchmark's baseline and the tests' cross-check) is an index-only scan.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE COLLATE NOCASE,
	key_hash BLOB NOT NULL UNIQUE,
	created_at INTEGER NOT NULL,
	revoked_at INTEGER,
	sends_ok INTEGER NOT NULL DEFAULT 0,
	sends_failed INTEGER NOT NULL DEFAULT 0,
	joins INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
	id INTEGER PRIMARY KEY,
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	kind INTEGER NOT NULL CHECK (kind IN (0, 1, 2)),
	at INTEGER NOT NULL,
	external_id TEXT
);
CREATE INDEX IF NOT EXISTS events_by_account_time_kind ON events (account_id, at, kind);
CREATE UNIQUE INDEX IF NOT EXISTS events_by_external_id ON events (account_id, external_id)
	WHERE external_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS imports (
	id INTEGER PRIMARY KEY,
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	sha256 BLOB NOT NULL,
	imported_at INTEGER NOT NULL,
	events INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS imports_by_digest ON imports (account_id, sha256);
CREATE TABLE IF NOT EXISTS daily_rollups (
	account_id INTEGER NOT NULL REFERENCES accounts (id),
	day INTEGER NOT NULL,
	sends_ok INTEGER NOT NULL DEFAULT 0,
	sends_failed INTEGER NOT NULL DEFAULT 0,
	joins INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (account_id, day)
) WITHOUT ROWID;
`;

/**
 * Sets the connection up (WAL, busy timeout) and creates or upgrades the tables; refuses a file from a newer
 * schema. A file already current is only read, so opening never waits for another command's write lock.
 */
export function prepareDatabase(db: Database.Database): void {
	db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
	db.pragma('journal_mode = WAL');
	db.pragma('synchronous = NORMAL');
	db.pragma('foreign_keys = ON');
	const version = db.pragma('user_version', { simple: true }) as number;
	if (version > SCHEMA_VERSION) {
		throw new Error(`the database uses schema version ${version}; this build knows up to ${SCHEMA_VERSION}`);
	}
	if (version === SCHEMA_VERSION) return;
	db.transaction(() => {
		// Version 1 had no event ids and no import log; the new column must exist before its index is created.
		if (version === 1) db.exec('ALTER TABLE events ADD COLUMN external_id TEXT');
		db.exec(SCHEMA);
		db.pragma(`user_version = ${SCHEMA_VERSION}`);
	}).immediate();
}
