import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DAY_MS, formatGeneratedAt } from './utc-time.js';
import { EVENT_KIND, normalizeEvent, type NormalizedEvent, type StatsEvent } from './events.js';
import { generateApiKey, hashApiKey, hasKeyLength } from './keys.js';
import { prepareDatabase } from './schema.js';
import { computeStatsBody, statsWindow, type AccountTotals, type DayCounts, type StatsBody } from './stats-body.js';

export interface AccountSummary {
	name: string;
	/** ISO 8601, UTC. */
	createdAt: string;
	revoked: boolean;
}

/** The account a valid, unrevoked key belongs to, with its all-time totals. */
export interface AuthenticatedAccount {
	id: number;
	name: string;
	totals: AccountTotals;
}

/** A name that breaks the naming rule, or one already taken. */
export class AccountNameError extends Error {
	override name = 'AccountNameError';
}

/** The named account does not exist. */
export class UnknownAccountError extends Error {
	override name = 'UnknownAccountError';
	constructor(accountName: string) {
		super(`no account named "${accountName}"`);
	}
}

// Prepared per import: it names the attached staging file, which exists only then.
const COPY_STAGED = `INSERT INTO events (account_id, kind, at, external_id)
	SELECT @account, kind, at, external_id FROM staging.staged AS s
	WHERE s.external_id IS NULL OR NOT EXISTS
		(SELECT 1 FROM events AS e WHERE e.account_id = @account AND e.external_id = s.external_id)
	ORDER BY at`;

const ACCOUNT_NAME = /^[\p{L}\p{N}_.-](?:[\p{L}\p{N}_. -]{0,62}[\p{L}\p{N}_.-])?$/u;

/** An import already stored for an account, found by its file's digest. */
export interface PriorImport {
	/** ISO 8601, UTC. */
	importedAt: string;
	events: number;
}

/** What storing a staged import did, or why it stored nothing. */
export type StagedImportResult =
	| { status: 'imported'; imported: number; skippedIds: number; revokedAt: string | null }
	| { status: 'duplicate'; prior: PriorImport };

interface AccountRow {
	id: number;
	name: string;
	revoked_at: number | null;
	sends_ok: number;
	sends_failed: number;
	joins: number;
}

const toTotals = (row: AccountRow): AccountTotals => ({
	sendsOk: row.sends_ok,
	sendsFailed: row.sends_failed,
	joins: row.joins,
});

/** Opens (creating when needed, parent directory included) the service's SQLite file. */
export function openStatsStore(path: string): StatsStore {
	if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
	return new StatsStore(new Database(path));
}

/** Accounts, hashed keys, raw events and the roll-ups that answer stats requests. */
export class StatsStore {
	private readonly sql;

	constructor(readonly db: Database.Database) {
		prepareDatabase(db);
		this.sql = {
			insertAccount: db.prepare('INSERT INTO accounts (name, key_hash, created_at) VALUES (?, ?, ?)'),
			accountByName: db.prepare<[string], AccountRow>(
				'SELECT id, name, revoked_at, sends_ok, sends_failed, joins FROM accounts WHERE name = ?',
			),
			accountByKey: db.prepare<[Buffer], AccountRow>(
				'SELECT id, name, revoked_at, sends_ok, sends_failed, joins FROM accounts WHERE key_hash = ? AND revoked_at IS NULL',
			),
			listAccounts: db.prepare<[], { name: string; created_at: number; revoked_at: number | null }>(
				'SELECT name, created_at, revoked_at FROM accounts ORDER BY name',
			),
			revoke: db.prepare('UPDATE accounts SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL'),
			setKey: db.prepare('UPDATE accounts SET key_hash = ?, revoked_at = NULL WHERE name = ?'),
			insertEvent: db.prepare('INSERT INTO events (account_id, kind, at) VALUES (?, ?, ?)'),
			upsertDay:
				db.prepare(`INSERT INTO daily_rollups (account_id, day, sends_ok, sends_failed, joins) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (account_id, day) DO UPDATE SET sends_ok = sends_ok + excluded.sends_ok,
				sends_failed = sends_failed + excluded.sends_failed, joins = joins + excluded.joins`),
			addTotals: db.prepare(
				'UPDATE accounts SET sends_ok = sends_ok + ?, sends_failed = sends_failed + ?, joins = joins + ? WHERE id = ?',
			),
			windowDays: db.prepare<[number, number, number], { day: number; sendsOk: number; joins: number }>(
				'SELECT day, sends_ok AS sendsOk, joins FROM daily_rollups WHERE account_id = ? AND day BETWEEN ? AND ?',
			),
			rawTotals: db.prepare<[number], { sendsOk: number; sendsFailed: number; joins: number }>(
				`SELECT COALESCE(SUM(kind = 0), 0) AS sendsOk, COALESCE(SUM(kind = 1), 0) AS sendsFailed,
				COALESCE(SUM(kind = 2), 0) AS joins FROM events WHERE account_id = ?`,
			),
			rawWindowDays: db.prepare<[number, number, number], DayCounts>(
				`SELECT at / ${DAY_MS} AS day, SUM(kind = 0) AS sendsOk, SUM(kind = 2) AS joins
				FROM events WHERE account_id = ? AND at >= ? AND at < ? GROUP BY day`,
			),
			deleteEvents: db.prepare('DELETE FROM events WHERE account_id = ?'),
			deleteImports: db.prepare('DELETE FROM imports WHERE account_id = ?'),
			priorImport: db.prepare<[number, Buffer], { imported_at: number; events: number }>(
				'SELECT imported_at, events FROM imports WHERE account_id = ? AND sha256 = ? ORDER BY imported_at DESC LIMIT 1',
			),
			recordImport: db.prepare('INSERT INTO imports (account_id, sha256, imported_at, events) VALUES (?, ?, ?, ?)'),
			lastEventId: db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM events'),
			rollUpSince: db.prepare(`INSERT INTO daily_rollups (account_id, day, sends_ok, sends_failed, joins)
				SELECT account_id, at / ${DAY_MS}, SUM(kind = 0), SUM(kind = 1), SUM(kind = 2)
				FROM events WHERE id > ? GROUP BY account_id, at / ${DAY_MS}
				ON CONFLICT (account_id, day) DO UPDATE SET sends_ok = sends_ok + excluded.sends_ok,
				sends_failed = sends_failed + excluded.sends_failed, joins = joins + excluded.joins`),
			totalsSince: db.prepare<[number], { ok: number; failed: number; joins: number }>(
				`SELECT COALESCE(SUM(kind = 0), 0) AS ok, COALESCE(SUM(kind = 1), 0) AS failed,
				COALESCE(SUM(kind = 2), 0) AS joins FROM events WHERE id > ?`,
			),
			deleteRollups: db.prepare('DELETE FROM daily_rollups WHERE account_id = ?'),
			deleteAccount: db.prepare('DELETE FROM accounts WHERE id = ?'),
		};
	}

	/** Creates an account and returns its key, the only time the key exists in clear; throws AccountNameError. */
	createAccount(name: string): { name: string; apiKey: string } {
		if (!ACCOUNT_NAME.test(name)) {
			throw new AccountNameError(
				'an account name is 1-64 letters, digits, "_", "." or "-" (inner spaces allowed), e.g. "acme-ads"',
			);
		}
		const apiKey = generateApiKey();
		try {
			this.sql.insertAccount.run(name, hashApiKey(apiKey), Date.now());
		} catch (error) {
			if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
				throw new AccountNameError(`an account named "${name}" already exists`);
			}
			throw error;
		}
		return { name, apiKey };
	}

	/** Replaces the account's key (and lifts a revocation); returns the new key. Throws UnknownAccountError. */
	rotateKey(name: string): string {
		const apiKey = generateApiKey();
		if (this.sql.setKey.run(hashApiKey(apiKey), name).changes === 0) throw new UnknownAccountError(name);
		return apiKey;
	}

	/** True when the account existed and was not revoked yet. */
	revokeAccount(name: string): boolean {
		return this.sql.revoke.run(Date.now(), name).changes > 0;
	}

	/** Removes the account with its events and roll-ups; false when there was none. */
	deleteAccount(name: string): boolean {
		return this.db
			.transaction(() => {
				const account = this.sql.accountByName.get(name);
				if (!account) return false;
				this.sql.deleteEvents.run(account.id);
				this.sql.deleteRollups.run(account.id);
				this.sql.deleteImports.run(account.id);
				this.sql.deleteAccount.run(account.id);
				return true;
			})
			.immediate();
	}

	/** When a file with this digest was last imported into the account, or null. Throws UnknownAccountError. */
	findImport(accountName: string, sha256: Buffer): PriorImport | null {
		const row = this.sql.priorImport.get(this.requireAccount(accountName).id, sha256);
		return row ? { importedAt: new Date(row.imported_at).toISOString(), events: row.events } : null;
	}

	/**
	 * Copies the events of a finished ImportStaging file into the account in one transaction, the only time
	 * an import holds the write lock: events whose id the account holds are skipped, roll-ups and totals follow,
	 * and the file's digest is remembered. Unless `allowDuplicate`, a digest imported before stores nothing.
	 * Throws UnknownAccountError.
	 */
	importStaged(
		accountName: string,
		staging: { path: string; sha256: Buffer; allowDuplicate: boolean; nowMs?: number },
	): StagedImportResult {
		this.db.prepare('ATTACH DATABASE ? AS staging').run(staging.path);
		try {
			return this.db
				.transaction((): StagedImportResult => {
					const account = this.requireAccount(accountName);
					const prior = staging.allowDuplicate ? null : this.sql.priorImport.get(account.id, staging.sha256);
					if (prior) {
						return {
							status: 'duplicate',
							prior: { importedAt: new Date(prior.imported_at).toISOString(), events: prior.events },
						};
					}
					const staged = (this.db.prepare('SELECT COUNT(*) AS n FROM staging.staged').get() as { n: number }).n;
					const lastId = this.sql.lastEventId.get()?.id ?? 0;
					const imported = this.db.prepare(COPY_STAGED).run({ account: account.id }).changes;
					this.sql.rollUpSince.run(lastId);
					const totals = this.sql.totalsSince.get(lastId) ?? { ok: 0, failed: 0, joins: 0 };
					this.sql.addTotals.run(totals.ok, totals.failed, totals.joins, account.id);
					this.sql.recordImport.run(account.id, staging.sha256, staging.nowMs ?? Date.now(), imported);
					return {
						status: 'imported',
						imported,
						skippedIds: staged - imported,
						revokedAt: account.revoked_at === null ? null : new Date(account.revoked_at).toISOString(),
					};
				})
				.immediate();
		} finally {
			this.db.exec('DETACH DATABASE staging');
		}
	}

	/** Whether the account exists, and since when it is revoked (ISO 8601) if it is. Throws UnknownAccountError. */
	accountState(accountName: string): { revokedAt: string | null } {
		const row = this.requireAccount(accountName);
		return { revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString() };
	}

	listAccounts(): AccountSummary[] {
		return this.sql.listAccounts.all().map((row) => ({
			name: row.name,
			createdAt: new Date(row.created_at).toISOString(),
			revoked: row.revoked_at !== null,
		}));
	}

	/** The account of an unrevoked key, or null for an unknown, revoked or over-long key. */
	authenticate(apiKey: string): AuthenticatedAccount | null {
		if (!hasKeyLength(apiKey)) return null;
		const row = this.sql.accountByKey.get(hashApiKey(apiKey));
		return row ? { id: row.id, name: row.name, totals: toTotals(row) } : null;
	}

	/** Validates every event first, then stores them all in one transaction; returns the count. Throws InvalidEventError or UnknownAccountError. */
	importEvents(accountName: string, events: readonly StatsEvent[]): number {
		return this.importNormalizedEvents(
			accountName,
			events.map((event) => normalizeEvent(event)),
		);
	}

	/** Stores one event with its roll-up and totals update. */
	ingestEvent(accountName: string, event: StatsEvent): void {
		this.importEvents(accountName, [event]);
	}

	/** Stores already validated events, roll-ups and totals in one transaction; returns the count. */
	importNormalizedEvents(accountName: string, events: readonly NormalizedEvent[]): number {
		return this.db
			.transaction(() => {
				const account = this.requireAccount(accountName);
				const days = new Map<number, [number, number, number]>();
				const totals: [number, number, number] = [0, 0, 0];
				for (const event of events) {
					this.sql.insertEvent.run(account.id, event.kind, event.atMs);
					const day = Math.floor(event.atMs / DAY_MS);
					let counts = days.get(day);
					if (!counts) days.set(day, (counts = [0, 0, 0]));
					counts[event.kind] += 1;
					totals[event.kind] += 1;
				}
				for (const [day, [ok, failed, joins]] of days) this.sql.upsertDay.run(account.id, day, ok, failed, joins);
				this.sql.addTotals.run(
					totals[EVENT_KIND.sendOk],
					totals[EVENT_KIND.sendFailed],
					totals[EVENT_KIND.join],
					account.id,
				);
				return events.length;
			})
			.immediate();
	}

	/** The stats body of an authenticated account, read from totals and at most 30 roll-up rows. */
	computeStatsFor(account: AuthenticatedAccount, now: Date, generatedAt = formatGeneratedAt(now)): StatsBody {
		const { firstDay, today } = statsWindow(now);
		const days = this.sql.windowDays.all(account.id, firstDay, today);
		return computeStatsBody({ user: account.name, totals: account.totals, days, now, generatedAt });
	}

	/** The stats body of a named account at `now`. Throws UnknownAccountError. */
	computeStats(accountName: string, now: Date): StatsBody {
		const row = this.requireAccount(accountName);
		return this.computeStatsFor({ id: row.id, name: row.name, totals: toTotals(row) }, now);
	}

	/** The same body as computeStats, aggregated from the raw events table: the baseline and the cross-check. */
	computeStatsFromRawEvents(accountName: string, now: Date): StatsBody {
		const row = this.requireAccount(accountName);
		const { firstDay, today } = statsWindow(now);
		const totals = this.sql.rawTotals.get(row.id) ?? { sendsOk: 0, sendsFailed: 0, joins: 0 };
		const days = this.sql.rawWindowDays.all(row.id, firstDay * DAY_MS, (today + 1) * DAY_MS);
		return computeStatsBody({ user: row.name, totals, days, now, generatedAt: formatGeneratedAt(now) });
	}

	close(): void {
		if (this.db.open) this.db.close();
	}

	private requireAccount(name: string): AccountRow {
		const row = this.sql.accountByName.get(name);
		if (!row) throw new UnknownAccountError(name);
		return row;
	}
}
