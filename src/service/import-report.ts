import type { ImportOutcome } from './import-events.js';
import { MAX_LINE_BYTES, REPORTED_BAD_LINES } from './import-file.js';

/** What `events import` prints for an outcome, and its exit code (1 when nothing was imported). */
export function describeImport(
	file: string,
	accountName: string,
	outcome: ImportOutcome,
): { stdout: string[]; stderr: string[]; exitCode: 0 | 1 } {
	if (outcome.status === 'bad-lines') {
		const stderr = outcome.badLines.map((bad) => `${file}:${bad.lineNumber}: ${bad.reason}`);
		const more = outcome.badLineCount - outcome.badLines.length;
		if (more > 0) {
			stderr.push(
				`... and ${more} more bad lines (${outcome.badLineCount} in all; the first ${REPORTED_BAD_LINES} are shown)`,
			);
		}
		stderr.push(
			`${file}: ${outcome.badLineCount} bad line(s); nothing was imported. Each line must be one JSON event of at most ${MAX_LINE_BYTES / 1_048_576} MiB, not in the future.`,
		);
		return { stdout: [], stderr, exitCode: 1 };
	}
	if (outcome.status === 'duplicate') {
		const { importedAt, events } = outcome.prior;
		return {
			stdout: [],
			stderr: [
				`error: ${file} was already imported into "${accountName}" at ${importedAt} (${events} events); nothing was imported. --allow-duplicate imports it again.`,
			],
			exitCode: 1,
		};
	}
	const skipped = outcome.skippedIds > 0 ? ` Skipped ${outcome.skippedIds} events whose id was already stored.` : '';
	const stderr =
		outcome.revokedAt === null
			? []
			: [
					`warning: the account "${accountName}" was revoked at ${outcome.revokedAt}; its events are stored, but its stats answer 401 until \`account rotate-key ${accountName}\` gives it a new key.`,
				];
	return {
		stdout: [`Imported ${outcome.imported} events from ${file} into "${accountName}".${skipped}`],
		stderr,
		exitCode: 0,
	};
}
