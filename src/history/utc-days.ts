/** Milliseconds in one UTC calendar day; every day of the history is a UTC calendar day. */
export const DAY_MS = 86_400_000;

/**
 * Dates and their midnights, worked out once: a reply walks a year of days several times, and each step wrote
 * an ISO string and parsed one back. About 27 years of days; emptied when full.
 */
const MAX_REMEMBERED_DAYS = 10_000;
const dateOfDay = new Map<number, string>();
const startOfDay = new Map<string, number>();

/** `YYYY-MM-DD` of the UTC day an epoch-ms instant falls on. */
export function utcDateOf(epochMs: number): string {
	const day = Math.floor(epochMs / DAY_MS);
	let date = dateOfDay.get(day);
	if (date === undefined) {
		// Throws a RangeError for an instant that is no date, as before; nothing is remembered then.
		date = new Date(epochMs).toISOString().slice(0, 10);
		if (dateOfDay.size >= MAX_REMEMBERED_DAYS) dateOfDay.clear();
		dateOfDay.set(day, date);
	}
	return date;
}

/** Epoch ms of 00:00 UTC of a `YYYY-MM-DD` date. */
export function startOfDate(date: string): number {
	let start = startOfDay.get(date);
	if (start === undefined) {
		start = Date.parse(`${date}T00:00:00Z`);
		if (startOfDay.size >= MAX_REMEMBERED_DAYS) startOfDay.clear();
		startOfDay.set(date, start);
	}
	return start;
}

/** The date `days` days after `date` (before it when negative). */
export function addDays(date: string, days: number): string {
	return utcDateOf(startOfDate(date) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
	return Math.round((startOfDate(to) - startOfDate(from)) / DAY_MS);
}
