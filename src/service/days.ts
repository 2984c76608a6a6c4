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

/** The wall clock with sub-millisecond precision, for `generated_at` when no clock is injected. */
export function preciseNow(): { date: Date; microsWithinMs: number } {
	const epochMs = performance.timeOrigin + performance.now();
	const wholeMs = Math.floor(epochMs);
	return { date: new Date(wholeMs), microsWithinMs: Math.floor((epochMs - wholeMs) * 1000) };
}
