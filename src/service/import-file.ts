import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { InvalidEventError, parseEventLine, type NormalizedEvent } from './events.js';

/** A line of an NDJSON file that is not an event; `lineNumber` counts from 1. */
export class EventFileError extends Error {
	override name = 'EventFileError';
	constructor(
		readonly lineNumber: number,
		reason: string,
	) {
		super(`line ${lineNumber}: ${reason}`);
	}
}

/**
 * Streams an NDJSON file of events (blank lines skipped) and validates all of it before anything is
 * stored, so a bad line costs no partial import. Throws EventFileError naming the first bad line.
 */
export async function readEventsFile(path: string): Promise<NormalizedEvent[]> {
	const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
	const events: NormalizedEvent[] = [];
	let lineNumber = 0;
	for await (const rawLine of lines) {
		lineNumber += 1;
		const line = lineNumber === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine;
		if (line.trim() === '') continue;
		try {
			events.push(parseEventLine(line));
		} catch (error) {
			if (error instanceof InvalidEventError) {
				lines.close();
				throw new EventFileError(lineNumber, error.message);
			}
			throw error;
		}
	}
	return events;
}
