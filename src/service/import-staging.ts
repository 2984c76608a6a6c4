import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { NormalizedEvent } from './events.js';

const BATCH = 10_000;
/**
 * `.import-h<host>-<pid>-<random>.sqlite` (and SQLite's side files): the host and process that own a scratch
 * file, so a later import can tell one left by a killed import from one in use. Names without the host
 * (written before it was added) count as this host's.
 */
const SCRATCH_NAME = /^\.import-(?:h([0-9a-f]{8})-)?(\d+)-[0-9a-f]{12}\.sqlite(?:-journal|-wal|-shm)?$/;
/** Another host's process cannot be asked whether it still runs: its scratch file is left this long. */
const FOREIGN_SCRATCH_AGE_MS = 24 * 3_600_000;

/** This host's tag in scratch names: a hash, so no host name needs escaping in a file name. */
const hostTag = (): string => createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

/**
 * Removes the scratch files in `directory` that no running import owns: this host's whose process has ended
 * (an import killed with SIGKILL, or a crash, could not remove its own), another host's (a shared volume)
 * once untouched for a day. An import still running keeps its file; so does one whose pid the system has
 * since given to another process, until that one ends. Returns the names removed.
 */
export function removeStaleScratchFiles(directory: string, nowMs = Date.now()): string[] {
	let names: string[];
	try {
		names = readdirSync(directory);
	} catch {
		return [];
	}
	const here = hostTag();
	const removed: string[] = [];
	for (const name of names) {
		const match = SCRATCH_NAME.exec(name);
		if (!match) continue;
		const [, host, pid] = match;
		const path = join(directory, name);
		const isStale =
			host === undefined || host === here
				? !isRunning(Number(pid))
				: isUntouchedFor(path, FOREIGN_SCRATCH_AGE_MS, nowMs);
		if (!isStale) continue;
		rmSync(path, { force: true });
		removed.push(name);
	}
	return removed;
}

function isRunning(pid: number): boolean {
	if (pid === process.pid) return true;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs, as another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function isUntouchedFor(path: string, ageMs: number, nowMs: number): boolean {
	try {
		return nowMs - statSync(path).mtimeMs > ageMs;
	} catch {
		return false;
	}
}

/**
 * A scratch SQLite file that holds an import's validated events until they are stored, so a file of any
 * size is checked in bounded memory and the service's database is locked only for the final copy.
 * The file lives beside the database (its events will need that disk anyway) and is removed by `discard`;
 * one an import could not remove (it was killed) is removed by the next import (removeStaleScratchFiles).
 */
export class ImportStaging {
	readonly path: string;
	private readonly db: Database.Database;
	private readonly insert;
	private inBatch = 0;
	private staged = 0;
	private duplicateIds = 0;

	/** Scratch files of earlier imports that were left behind, removed before this one began. */
	readonly removedStale: string[];

	constructor(directory: string) {
		this.removedStale = removeStaleScratchFiles(directory);
		this.path = join(directory, `.import-h${hostTag()}-${process.pid}-${randomBytes(6).toString('hex')}.sqlite`);
		this.db = new Database(this.path);
		// Scratch data: a crash loses nothing that the source file does not still hold. The journal is kept in
		// memory: no side file for a killed import to leave. (better-sqlite3 refuses journal_mode = OFF and
		// keeps a -journal file beside the scratch file, silently, which is why the mode is read back.)
		const mode = this.db.pragma('journal_mode = MEMORY', { simple: true });
		if (mode !== 'memory') throw new Error(`the import's scratch file would not keep its journal in memory (${mode})`);
		this.db.pragma('synchronous = OFF');
		this.db.exec(`CREATE TABLE staged (
			seq INTEGER PRIMARY KEY,
			kind INTEGER NOT NULL,
			at INTEGER NOT NULL,
			external_id TEXT UNIQUE
		)`);
		this.insert = this.db.prepare('INSERT OR IGNORE INTO staged (kind, at, external_id) VALUES (?, ?, ?)');
	}

	/** Stages one event; a second event with an id already in the file is dropped (and counted). */
	add(event: NormalizedEvent): void {
		if (this.inBatch === 0) this.db.exec('BEGIN');
		if (this.insert.run(event.kind, event.atMs, event.externalId ?? null).changes === 0) this.duplicateIds += 1;
		else this.staged += 1;
		this.inBatch += 1;
		if (this.inBatch >= BATCH) this.flush();
	}

	/** Commits what is staged and closes the file so the store can attach it; returns the counts. */
	finish(): { staged: number; duplicateIdsInFile: number } {
		this.flush();
		// Built here, with no lock held: a covering index in time order lets the store read the events
		// sequentially and append to its own time index instead of scattering inserts across it
		// (a 2-million-line copy: 4.5 s instead of 40).
		this.db.exec('CREATE INDEX staged_by_time ON staged (at, kind, external_id)');
		this.db.close();
		return { staged: this.staged, duplicateIdsInFile: this.duplicateIds };
	}

	/** Closes (when needed) and removes the scratch file. */
	discard(): void {
		if (this.db.open) this.db.close();
		for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${this.path}${suffix}`, { force: true });
	}

	private flush(): void {
		if (this.inBatch === 0) return;
		this.db.exec('COMMIT');
		this.inBatch = 0;
	}
}
