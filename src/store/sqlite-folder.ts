import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates the folder of a SQLite file; one that cannot be created is named, with the variable that chose it. */
export function createFolderOf(file: string): void {
	if (file === ':memory:') return;
	try {
		mkdirSync(dirname(file), { recursive: true });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
		throw new Error(`cannot create the folder ${dirname(file)} for the SQLite store (${code}): check STORE_URL`, {
			cause: error,
		});
	}
}
