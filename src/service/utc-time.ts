/** Milliseconds in one UTC calendar day; every period of the service is made of whole UTC days. */
export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 (UTC) of an epoch-ms instant; the roll-up table is keyed by this number. */
export function dayNumberOf(epochMs: number): number {
	return Math.floor(epochMs / DAY_MS);
}

/** `YYYY-MM-DD` of a day number. */
export function formatDay(dayNumber: number): string {
	return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/** ISO 8601 with microseconds and an explicit `+00:00` offset, e.g. `2026-11-21T09:30:12.123456+00:00`. */
export function formatGeneratedAt(date: Date, microsWithinMs = 0): string {
	const micros = String(Math.min(999, Math.max(0, Math.floor(microsWithinMs)))).padStart(3, '0');
	return `${date.toISOString().slice(0, 23)}${micros}+00:00`;
}

// `performance.timeOrigin + performance.now()` runs on the monotonic clock and drifts from the wall clock in a
// long-running process, so the milliseconds come from Date.now() and only the microseconds from the timer, which
// is re-anchored whenever the two disagree on the millisecond.
let timerAnchorMs = performance.timeOrigin;
let last = { wholeMs: 0, micros: 0 };

/** The wall clock (Date.now()'s milliseconds) with microseconds from the high-resolution timer, for `generated_at`. */
export function preciseNow(): { date: Date; microsWithinMs: number } {
	const wholeMs = Date.now();
	const timerMs = performance.now();
	let estimateMs = timerAnchorMs + timerMs;
	if (Math.floor(estimateMs) !== wholeMs) {
		timerAnchorMs = wholeMs - timerMs;
		estimateMs = wholeMs;
	}
	let micros = Math.min(999, Math.max(0, Math.floor((estimateMs - wholeMs) * 1000)));
	// A re-anchor may move the timer back within the millisecond; never go back within one.
	if (wholeMs === last.wholeMs && micros <= last.micros) micros = Math.min(999, last.micros + 1);
	last = { wholeMs, micros };
	return { date: new Date(wholeMs), microsWithinMs: micros };
}
