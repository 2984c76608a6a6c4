import { UserFacingError } from '../errors.js';
import { addDays, daysBetween } from '../history/utc-days.js';

/** A run of whole UTC days, `YYYY-MM-DD`, both ends included. */
export interface DateRange {
	from: string;
	to: string;
}

/** The longest range a chart, a page or a file covers: the longest `days` choice. */
export const MAX_RANGE_DAYS = 365;

/**
 * `from` and `to` as the member gave them, checked against today. `to` is filled in (today when left out);
 * `from` stays null when left out, as it then depends on `days`, which may be the server's default.
 */
export interface RangeBounds {
	from: string | null;
	to: string;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/u;

/** `YYYY-MM-DD` naming a day the calendar has (2026-02-30 does not exist; 2028-02-29 does). */
export function isRealUtcDay(text: string): boolean {
	if (!DAY_PATTERN.test(text)) return false;
	const ms = Date.parse(`${text}T00:00:00Z`);
	// Date.parse rolls some impossible days over to the next month instead of failing: the round trip catches it.
	return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/**
 * Checks `from` and `to` (either may be absent; an empty string counts as absent): each a real day, none after
 * today, `from` not after `to`, at most 365 days. Returns null when neither was given. Throws UserFacingError
 * naming the reason; the wrong text itself is not repeated back (it is the member's input, not ours to echo).
 */
export function checkRangeBounds(
	input: { from?: string | null; to?: string | null },
	today: string,
): RangeBounds | null {
	const from = absentWhenBlank(input.from);
	const to = absentWhenBlank(input.to);
	if (from === null && to === null) return null;
	for (const [option, value] of [
		['from', from],
		['to', to],
	] as const) {
		if (value === null) continue;
		if (!isRealUtcDay(value)) throw new UserFacingError('range.malformed', { option });
		if (value > today) throw new UserFacingError('range.future', { option, date: value, today });
	}
	const end = to ?? today;
	if (from !== null) {
		if (from > end) throw new UserFacingError('range.reversed', { from, to: end });
		const days = rangeLength({ from, to: end });
		if (days > MAX_RANGE_DAYS) throw new UserFacingError('range.tooLong', { days, max: MAX_RANGE_DAYS });
	}
	return { from, to: end };
}

/** The whole range: a `from` left out is `to` minus `days` + 1 (`days` is at most 365, so the range is too). */
export function completeRange(bounds: RangeBounds, days: number): DateRange {
	return { from: bounds.from ?? addDays(bounds.to, -(Math.min(days, MAX_RANGE_DAYS) - 1)), to: bounds.to };
}

/** Both steps, for a caller that knows its `days` already (a web request, a test). */
export function parseDateRange(
	input: { from?: string | null; to?: string | null },
	options: { days: number; today: string },
): DateRange | null {
	const bounds = checkRangeBounds(input, options.today);
	return bounds === null ? null : completeRange(bounds, options.days);
}

/** Days in a range, both ends counted. */
export function rangeLength(range: DateRange): number {
	return daysBetween(range.from, range.to) + 1;
}

/** The `days` UTC days ending on `to`: what a request without a range shows. */
export function daysEndingOn(to: string, days: number): DateRange {
	return { from: addDays(to, -(days - 1)), to };
}

function absentWhenBlank(value: string | null | undefined): string | null {
	const trimmed = value?.trim() ?? '';
	return trimmed === '' ? null : trimmed;
}
