import { Cron } from 'croner';
import { spreadOffset } from '../core/periodic-runner.js';
import { WEEKDAYS, type ReportRecord } from './report-record.js';

type Schedule = Pick<ReportRecord, 'every' | 'hour' | 'timezone' | 'weekday'>;

/** True when the runtime knows the IANA name (resolvedOptions would rewrite some names, so only the throw counts). */
export function isKnownTimeZone(timeZone: string): boolean {
	try {
		new Intl.DateTimeFormat('en', { timeZone });
		return true;
	} catch {
		return false;
	}
}

/** The report's cron pattern (seconds first): the top of its local hour, every day or on its weekday. */
export function cronPattern(schedule: Schedule): string {
	const day = schedule.every === 'weekly' ? String(WEEKDAYS.indexOf(schedule.weekday ?? 'mon')) : '*';
	return `0 0 ${schedule.hour} * * ${day}`;
}

const crons = new Map<string, Cron>();

/**
 * A paused Cron used only to compute due times; the scheduler keeps its own (injectable) timers.
 * `no-wildcard` makes every report a fixed-time job: a due time in a spring-forward gap runs at the
 * first valid minute, and an hour repeated in autumn runs once.
 */
function cronOf(schedule: Schedule): Cron {
	const pattern = cronPattern(schedule);
	const id = `${pattern} ${schedule.timezone}`;
	let cron = crons.get(id);
	if (!cron) {
		cron = new Cron(pattern, { timezone: schedule.timezone, paused: true, fixedTimeRule: 'no-wildcard' });
		crons.set(id, cron);
	}
	return cron;
}

/** The first due time strictly after `after` (epoch ms), or null when the pattern never fires. */
export function nextDueAfter(schedule: Schedule, after: number): number | null {
	return cronOf(schedule).nextRun(new Date(after))?.getTime() ?? null;
}

/**
 * Reports are posted a stable number of whole minutes after the top of their hour, from a hash of the server:
 * thousands of servers asking for 09:00 reach Discord over 09:00–09:29 instead of in one second, and each
 * server's report still comes at the same minute every time, well inside the hour it chose.
 */
export const REPORT_SPREAD_MINUTES = 30;

/** How long after its due time the report is posted: whole minutes, so the minute scans meet it exactly. */
export const reportDelayMs = (record: Pick<ReportRecord, 'guildId'>): number =>
	spreadOffset(record.guildId, REPORT_SPREAD_MINUTES) * 60_000;

/** When the report next posts after `after` (epoch ms): its next due time past the delay, plus the delay. */
export function nextPostAfter(schedule: Schedule & Pick<ReportRecord, 'guildId'>, after: number): number | null {
	const delay = reportDelayMs(schedule);
	const due = nextDueAfter(schedule, after - delay);
	return due === null ? null : due + delay;
}

/** The latest due time in (from, to], or null; used for what is due now and what was missed. */
export function latestDueIn(schedule: Schedule, from: number, to: number): number | null {
	let latest: number | null = null;
	for (let due = nextDueAfter(schedule, from); due !== null && due <= to; due = nextDueAfter(schedule, due)) {
		latest = due;
	}
	return latest;
}

/**
 * The local date and time of a due instant in the report's zone, e.g. `2026-10-25T02:00`. Claims use it, not the
 * UTC instant: should two instants ever map to one local slot (a repeated hour), the report still posts once.
 */
export function localSlot(timezone: string, at: number): string {
	const parts = new Intl.DateTimeFormat('en-CA', {
		timeZone: timezone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).formatToParts(new Date(at));
	const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
	return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** Every IANA zone for autocomplete: the runtime's list lacks `UTC` (and a few current names), so it is added. */
export function timeZoneNames(): readonly string[] {
	zoneNames ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((name) => name !== 'UTC')];
	return zoneNames;
}
let zoneNames: string[] | null = null;

/** Up to `limit` zones containing what was typed, those starting with it first. */
export function matchTimeZones(typed: string, limit = 25): string[] {
	const needle = typed.trim().toLowerCase().replaceAll(' ', '_');
	if (needle === '') return timeZoneNames().slice(0, limit);
	const starts: string[] = [];
	const contains: string[] = [];
	for (const name of timeZoneNames()) {
		const lower = name.toLowerCase();
		if (lower.startsWith(needle) || lower.includes(`/${needle}`)) starts.push(name);
		else if (lower.includes(needle)) contains.push(name);
	}
	return [...starts, ...contains].slice(0, limit);
}
