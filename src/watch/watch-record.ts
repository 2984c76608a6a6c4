import type { ChannelRefusal } from '../errors.js';
import type { GoalFiringFigures } from '../goals/goal-alert-rules.js';
import { ALERT_PREFIX, STAT_CHANNEL_PREFIX } from '../core/record-kinds.js';

/** The figures a stat channel can show, as `/statchannel add figure:` names them. */
export const STAT_FIGURES = [
	'sends-today',
	'sends-week',
	'sends-month',
	'sends-all',
	'joins-today',
	'joins-week',
	'joins-month',
	'joins-all',
] as const;
export type StatFigure = (typeof STAT_FIGURES)[number];

/** The kinds of `/alert add kind:`; the table in docs/watch.md (Alerts) says when each fires and re-arms. */
export const ALERT_KINDS = [
	'failed-share',
	'sends-drop',
	'no-sends',
	'sends-milestone',
	'joins-milestone',
	'goal-reached',
	'goal-at-risk',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The threshold each kind accepts, both ends included. */
export const ALERT_THRESHOLDS: Record<AlertKind, { min: number; max: number }> = {
	'failed-share': { min: 1, max: 100 },
	'sends-drop': { min: 1, max: 100 },
	'no-sends': { min: 1, max: 72 },
	'sends-milestone': { min: 1, max: Number.MAX_SAFE_INTEGER },
	'joins-milestone': { min: 1, max: Number.MAX_SAFE_INTEGER },
	// The server's goals carry their own targets: a goal alert takes no threshold (stored as 0).
	'goal-reached': { min: 0, max: 0 },
	'goal-at-risk': { min: 0, max: 0 },
};

/** The kinds that watch the server's goals (src/goals) instead of a threshold. */
export const GOAL_ALERT_KINDS: readonly AlertKind[] = ['goal-reached', 'goal-at-risk'];

export const MAX_STAT_CHANNELS_PER_SERVER = 5;
export const MAX_ALERTS_PER_SERVER = 10;
export const WATCH_SCHEMA_VERSION = 1;

/** Why a stat channel or an alert stopped, and when (epoch ms). */
export interface WatchPause {
	reason: ChannelRefusal;
	at: number;
}

/** One stat channel, stored under statChannelKey(guildId, channelId), with its renaming state. */
export interface StatChannelRecord {
	v: typeof WATCH_SCHEMA_VERSION;
	guildId: string;
	channelId: string;
	figure: StatFigure;
	createdBy: string;
	/** Epoch ms. */
	createdAt: number;
	/** The server's Discord locale when it was added, for the name's language when no language is set. */
	guildLocale: string | null;
	paused: WatchPause | null;
	/** The name the bot last gave the channel; null before the first rename. */
	name: string | null;
	/** Epoch ms of the renames sent within the last rename window, oldest first (the per-channel budget). */
	renames: number[];
	/** Epoch ms before which no rename may be sent: Discord's 429 said so. */
	blockedUntil: number;
	/** A rename sent and not yet answered, so that no other process sends the same one meanwhile. */
	pending: { name: string; at: number } | null;
}

/** What an alert remembers between evaluations. */
export interface AlertState {
	/** False between a firing and its re-arming. */
	armed: boolean;
	/** Firings so far; the next one is `firings + 1`, which names its claim and nonce. */
	firings: number;
	/** Epoch ms of the last firing. */
	firedAt: number | null;
	/** The UTC day (`YYYY-MM-DD`) the state belongs to, for kinds that re-arm or check once per day. */
	day: string | null;
	/** For no-sends: the all-time sends last seen and since when (epoch ms) they have not moved. */
	still: { value: number; since: number } | null;
	/** The firing decided but not yet known to be posted; any process posts it under its claim. */
	pending: AlertFiring | null;
	/** True when the last evaluation lacked data (e.g. no snapshot from the start of the UTC day). */
	notEnoughData: boolean;
	/** Goal kinds: the goals' periods already announced (`metric:period:start`), so each fires once per period. */
	firedPeriods?: string[];
}

/** One firing: what the post says. */
export interface AlertFiring {
	/** `firings` after this one. */
	number: number;
	/** The value now: a percentage for failed-share and sends-drop, hours for no-sends, a count for milestones. */
	value: number;
	/** Epoch ms the condition holds since (the day's start, the last move of sends, ...). */
	since: number;
	/** Epoch ms of the decision. */
	at: number;
	/** Goal kinds: the goal and its figures at the decision. */
	goal?: GoalFiringFigures;
}

export interface AlertRecord {
	v: typeof WATCH_SCHEMA_VERSION;
	/** Short id shown by `/alert list` and picked by `/alert remove id:`; unique within the server. */
	id: string;
	guildId: string;
	channelId: string;
	kind: AlertKind;
	threshold: number;
	createdBy: string;
	createdAt: number;
	guildLocale: string | null;
	paused: WatchPause | null;
	state: AlertState;
}

export const statChannelKey = (guildId: string, channelId: string): string =>
	`${STAT_CHANNEL_PREFIX}${guildId}:${channelId}`;
export const statChannelPrefix = (guildId?: string): string =>
	`${STAT_CHANNEL_PREFIX}${guildId === undefined ? '' : `${guildId}:`}`;
export const alertKey = (guildId: string, id: string): string => `${ALERT_PREFIX}${guildId}:${id}`;
export const alertPrefix = (guildId?: string): string => `${ALERT_PREFIX}${guildId === undefined ? '' : `${guildId}:`}`;

export function isStatFigure(value: unknown): value is StatFigure {
	return (STAT_FIGURES as readonly unknown[]).includes(value);
}

export function isAlertKind(value: unknown): value is AlertKind {
	return (ALERT_KINDS as readonly unknown[]).includes(value);
}

export function freshAlertState(): AlertState {
	return { armed: true, firings: 0, firedAt: null, day: null, still: null, pending: null, notEnoughData: false };
}

/** A stored value back into a record; null for anything that is not one of ours. */
export function parseStatChannelRecord(raw: unknown): StatChannelRecord | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const record = raw as Partial<StatChannelRecord>;
	if (record.v !== WATCH_SCHEMA_VERSION || !isStatFigure(record.figure)) return null;
	if (typeof record.guildId !== 'string' || typeof record.channelId !== 'string') return null;
	if (!Array.isArray(record.renames) || typeof record.blockedUntil !== 'number') return null;
	return record as StatChannelRecord;
}

export function parseAlertRecord(raw: unknown): AlertRecord | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const record = raw as Partial<AlertRecord>;
	if (record.v !== WATCH_SCHEMA_VERSION || !isAlertKind(record.kind)) return null;
	if (typeof record.guildId !== 'string' || typeof record.channelId !== 'string' || typeof record.id !== 'string')
		return null;
	if (typeof record.threshold !== 'number' || typeof record.state !== 'object' || record.state === null) return null;
	return record as AlertRecord;
}
