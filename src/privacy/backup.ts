// `data backup FILE`: every data kind as JSON lines, `{"kind", "key", "raw"}`, each record exactly as the backend
// holds it (expiry included, API keys still sealed: restoring needs the same LINK_SECRET). Written as it is read.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Stores } from '../store/open-stores.js';
import { storedRecords } from './stored-records.js';

/** One line of a backup. */
export interface BackupLine {
	kind: string;
	key: string;
	raw: string;
}

/** Records written, by the kind's registry id, in the order met. */
export async function backup(stores: Stores, file: string): Promise<Map<string, number>> {
	const counts = new Map<string, number>();
	const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
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
