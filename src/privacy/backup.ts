// `data backup FILE`: every data kind as JSON lines, `{"kind", "key", "raw"}`, each record exactly as the backend
// holds it (expiry included, API keys still sealed: restoring needs the same LINK_SECRET). Written as it is read.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Stores } from '../store/open-stores.js';
import { storedRecords } from './stored-records.js';

/** One line of a backup. */
export interface BackupLine {
	kind: string;
	key: string;
	raw: string;
}

/** The backup's file could not be created (it exists, or its folder does not); nothing was read or written. */
export class BackupFileError extends Error {
	override name = 'BackupFileError';
}

/** Opens a new file for the backup: an existing file is never overwritten (it may be the only good backup). */
async function openNewFile(file: string): Promise<WriteStream> {
	const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
	try {
		await once(out, 'open');
		return out;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'EEXIST') throw new BackupFileError(`${file} already exists: a backup never overwrites a file`);
		if (code === 'ENOENT') throw new BackupFileError(`${file}: its folder does not exist`);
		throw new BackupFileError(`${file} cannot be created (${code ?? 'unknown error'})`);
	}
}

/** Records written, by the kind's registry id, in the order met. */
export async function backup(stores: Stores, file: string): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	const out = await openNewFile(file);
	try {
		for await (const { kind, key, raw } of storedRecords(stores, { once: true })) {
			if (kind.keeping !== 'data') continue;
			const line: BackupLine = { kind: kind.id, key, raw };
			if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, 'drain');
			counts.set(kind.id, (counts.get(kind.id) ?? 0) + 1);
		}
	} finally {
		out.end();
		await once(out, 'close');
	}
	return counts;
}
