import { ImportStaging } from './import-staging.js';
import { scanEventsFile, type BadLine } from './import-file.js';
import type { PriorImport, StatsStore } from './service-store.js';

export type ImportOutcome =
	| { status: 'bad-lines'; badLines: BadLine[]; badLineCount: number }
	| { status: 'duplicate'; prior: PriorImport }
	| { status: 'imported'; imported: number; skippedIds: number; revokedAt: string | null };

/**
 * Imports an NDJSON file into an account, all or nothing: the file is streamed, checked and staged first
 * with no lock held, then copied into the database in one short transaction. A file with any bad line, or
 * (unless `allowDuplicate`) one whose SHA-256 the account already imported, stores nothing.
 * Throws UnknownAccountError, or the read error of an unreadable file.
 */
export async function importEventsFile(
	store: StatsStore,
	options: {
		file: string;
		accountName: string;
		allowDuplicate: boolean;
		stagingDirectory: string;
		nowMs?: number;
		/** Removes the scratch file at once and stops reading (an AbortError); nothing is stored. */
		signal?: AbortSignal;
		/** Told the names of scratch files that killed imports left in the staging directory, now removed. */
		onStaleScratchRemoved?: (names: string[]) => void;
	},
): Promise<ImportOutcome> {
	store.accountState(options.accountName); // an unknown account fails before a long read
	const nowMs = options.nowMs ?? Date.now();
	const staging = new ImportStaging(options.stagingDirectory);
	if (staging.removedStale.length > 0) options.onStaleScratchRemoved?.(staging.removedStale);
	// At once, not when the read ends: a read from a pipe or FIFO may never end.
	options.signal?.addEventListener('abort', () => staging.discard(), { once: true });
	try {
		const scanned = await scanEventsFile(options.file, {
			nowMs,
			onEvent: (event) => staging.add(event),
			signal: options.signal,
		});
		if (scanned.badLineCount > 0) {
			return { status: 'bad-lines', badLines: scanned.badLines, badLineCount: scanned.badLineCount };
		}
		const { duplicateIdsInFile } = staging.finish();
		const stored = store.importStaged(options.accountName, {
			path: staging.path,
			sha256: scanned.sha256,
			allowDuplicate: options.allowDuplicate,
			nowMs,
		});
		// An id seen twice in the file is skipped like one already stored.
		return stored.status === 'imported' ? { ...stored, skippedIds: stored.skippedIds + duplicateIdsInFile } : stored;
	} finally {
		staging.discard();
	}
}
