/** Milliseconds in one UTC calendar day; every day of the history is a UTC calendar day. */
export const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day an epoch-ms instant falls on. */
export function utcDateOf(epochMs: number): string {
	return new Date(epochMs).toISOString().slice(0, 10);
}

/** Epoch ms of 00:00 UTC of a `YYYY-MM-DD` date. */
export function startOfDate(date: string): number {
	return Date.parse(`${date}T00:00:00Z`);
}

/** The date `days` days after `date` (before it when negative). */
export function addDays(date: string, days: number): string {
	return utcDateOf(startOfDate(date) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
	return Math.round((startOfDate(to) - startOfDate(from)) / DAY_MS);
}
