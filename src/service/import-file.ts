import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { InvalidEventError, parseEventLine, type NormalizedEvent } from './events.js';
import { LineSplitter } from './line-splitter.js';

/** A line longer than this is refused unread: an event is a few dozen bytes. */
export const MAX_LINE_BYTES = 1_048_576;
/** Clock skew tolerated between the sender and this machine before an event counts as "in the future". */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;
/** Bad lines kept with their reason; the rest are only counted. */
export const REPORTED_BAD_LINES = 20;

/** A line of an NDJSON file that is not an event; `lineNumber` counts from 1. */
export interface BadLine {
	lineNumber: number;
	reason: string;
}

export interface ScannedEventsFile {
	/** SHA-256 of the file's bytes, as read. */
	sha256: Buffer;
	/** Valid events handed to `onEvent`. */
	events: number;
	/** The first REPORTED_BAD_LINES bad lines. */
	badLines: BadLine[];
	badLineCount: number;
}

/**
 * Streams an NDJSON file of events (blank lines skipped), hashing it and checking every line, and hands each
 * valid event to `onEvent` while no bad line has been seen. Memory stays bounded whatever the file's size or
 * the length of its lines. Throws when the file cannot be read, or an AbortError once `signal` aborts.
 */
export async function scanEventsFile(
	path: string,
	options: { nowMs: number; onEvent: (event: NormalizedEvent) => void; signal?: AbortSignal },
): Promise<ScannedEventsFile> {
	const hash = createHash('sha256');
	const notAfterMs = options.nowMs + FUTURE_TOLERANCE_MS;
	const result: ScannedEventsFile = { sha256: Buffer.alloc(0), events: 0, badLines: [], badLineCount: 0 };
	const badLine = (lineNumber: number, reason: string) => {
		result.badLineCount += 1;
		if (result.badLines.length < REPORTED_BAD_LINES) result.badLines.push({ lineNumber, reason });
	};
	const splitter = new LineSplitter(MAX_LINE_BYTES, {
		badLine,
		line(lineNumber, text) {
			if (text.trim() === '') return;
			let event: NormalizedEvent;
			try {
				event = parseEventLine(text, notAfterMs);
			} catch (error) {
				if (error instanceof InvalidEventError) return badLine(lineNumber, error.message);
				throw error;
			}
			// After a bad line nothing will be stored, so the rest is only checked.
			if (result.badLineCount > 0) return;
			result.events += 1;
			options.onEvent(event);
		},
	});
	for await (const chunk of createReadStream(path, { signal: options.signal })) {
		hash.update(chunk as Buffer);
		splitter.push(chunk as Buffer);
	}
	splitter.end();
	result.sha256 = hash.digest();
	return result;
}
