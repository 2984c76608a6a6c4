import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { isChannelFor } from '../channel-kinds.js';
import { UserFacingError } from '../errors.js';
import { botPermissionsIn } from '../guild-api.js';
import { requireServerKey } from '../core/require-server-key.js';
import { missingPermissions, permissionList } from '../permissions.js';
import { auditTime, postAudit } from '../settings/audit.js';
import type { CoreContext } from '../core/core-context.js';
import { claimLock } from '../core/claims.js';
import { buildReportPost, ReportPauseError, type ReportPost } from './build-report-post.js';
import { scheduleMessage } from './describe-report.js';
import {
	describeReportChannels,
	isChannelReference,
	reportChannelNamed,
	type ReportChannel,
} from './report-channels.js';
import {
	countsTowardsLimit,
	isReportFrequency,
	isWeekday,
	MAX_REPORTS_PER_SERVER,
	REPORT_PERMISSIONS,
	REPORT_SCHEMA_VERSION,
	type ReportPause,
	type ReportRecord,
} from './report-record.js';
import { createReportStore, type ReportStore } from './report-store.js';
import { isKnownTimeZone, nextPostAfter } from './schedule.js';

/** What reading a server's reports needs: the store, and Discord to tell which channels still exist. */
export type ReportReadContext = Pick<CoreContext, 'stores' | 'guildApi' | 'now'>;
/** Removing also writes the audit line. */
export type ReportRemoveContext = ReportReadContext & Pick<CoreContext, 'settings' | 'log'>;
/** Adding also builds the preview post (the stats, the history, the chart) and takes the server's lock. */
export type ReportActionContext = ReportRemoveContext &
	Pick<CoreContext, 'config' | 'links' | 'stats' | 'renderer' | 'history' | 'coordinator'>;

export interface ReportInput {
	/** Null when none came (a stale client, a form sent without one). */
	channel: { id: string; type: number | null } | null;
	/** Absent or null: the defaults, daily at 09:00 UTC. */
	every?: string | null;
	hour?: number | null;
	timezone?: string | null;
	/** Only for weekly reports; absent, Monday. */
	weekday?: string | null;
	/**
	 * The bot's permissions in that channel when the front end knows them (Discord sends them with an interaction for
	 * the channel it was typed in only); otherwise the action reads them with the bot's token.
	 */
	botPermissionsInChannel?: bigint | null;
	/** The server's Discord locale, for the posts' and the audit line's language when no `language` is set. */
	guildLocale: string | null;
}

export interface ReportAdded {
	record: ReportRecord;
	/** The report this one replaced in that channel (paused: it is resumed), null when it is new. */
	previous: ReportRecord | null;
	/** Exactly what the schedule will post, for the preview. */
	post: ReportPost;
}

export interface ReportRemoved {
	channelId: string;
	/** False when that channel had no report. */
	removed: boolean;
}

export interface ListedReport {
	record: ReportRecord;
	/** False for a report whose channel is gone: it stays listed until removed, outside the limit. */
	counted: boolean;
	/** Epoch ms of its next post; null while paused. */
	nextDue: number | null;
	pause: ReportPause | null;
	/** Paused, and adding it again for its channel resumes it. */
	resumable: boolean;
}

export interface ReportListing {
	/** Ordered by channel id, so lists read the same each time. */
	reports: ListedReport[];
	/** How many count towards `max`. */
	counted: number;
	max: number;
}

/** What `/report add` (and the manage page's form) takes when an option is left out. */
export const DEFAULT_EVERY = 'daily';
export const DEFAULT_HOUR = 9;
export const DEFAULT_TIMEZONE = 'UTC';

/**
 * Schedules (or replaces, or resumes) the report for one channel. Refusals carry the words `/report add` has
 * always used, and nothing is stored then.
 */
export async function addReport(
	ctx: ReportActionContext,
	actor: Actor,
	guildId: string,
	input: ReportInput,
): Promise<ReportAdded> {
	requireManageServer(actor, 'report');
	const now = clockOf(ctx);
	const draft = reportRecordFrom(guildId, actor.userId, input, now());
	await requireServerKey(ctx, guildId, 'report.needsServerKey');
	const granted = input.botPermissionsInChannel ?? (await botPermissionsIn(ctx.guildApi, guildId, draft.channelId));
	requirePostingPermissions(draft.channelId, granted);
	// The same post the schedule builds, so the preview shows exactly what will appear; a rejected key stops here.
	const post = await buildReportPost(ctx, draft).catch((error: unknown) => {
		if (!(error instanceof ReportPauseError)) throw error;
		throw new UserFacingError(error.reason === 'noServerKey' ? 'report.needsServerKey' : 'errors.serverKeyRejected');
	});
	const reports = createReportStore(ctx.stores);
	// Two admins adding at once (on Discord, on the dashboard, in two processes) must not get past the limit together.
	const previous = await claimLock(ctx.coordinator)(`reports:${guildId}`, async () => {
		const existing = await reports.listServer(guildId);
		const same = existing.find((record) => record.channelId === draft.channelId) ?? null;
		if (!same && (await countedReports(ctx, reports, existing)) >= MAX_REPORTS_PER_SERVER) {
			throw new UserFacingError('report.tooMany', { max: MAX_REPORTS_PER_SERVER });
		}
		await reports.put(draft);
		return same;
	});
	await postAudit(
		ctx,
		guildId,
		{
			key: 'audit.reportAdded',
			vars: {
				actor: auditActor(actor),
				channelId: draft.channelId,
				schedule: scheduleMessage(draft),
				when: auditTime(now()),
			},
		},
		{ guildLocale: input.guildLocale },
	);
	return { record: draft, previous, post };
}

/**
 * Removes the report of the channel `channelText` names: a `<#id>` mention, an id (a deleted channel's included),
 * or the name of one of the server's report channels. `guildLocale` (the server's Discord locale) is the audit
 * line's language when the server set none.
 */
export async function removeReport(
	ctx: ReportRemoveContext,
	actor: Actor,
	guildId: string,
	channelText: string,
	guildLocale: string | null = null,
): Promise<ReportRemoved> {
	requireManageServer(actor, 'report');
	const reports = createReportStore(ctx.stores);
	const channels = isChannelReference(channelText) ? [] : await serverChannels(ctx, reports, guildId);
	const channelId = reportChannelNamed(channelText, channels);
	if (channelId === null) throw new UserFacingError('reportRemove.pickFromList');
	const removed = await reports.remove(guildId, channelId);
	if (removed) {
		await postAudit(
			ctx,
			guildId,
			{ key: 'audit.reportRemoved', vars: { actor: auditActor(actor), channelId, when: auditTime(clockOf(ctx)()) } },
			{ guildLocale },
		);
	}
	return { channelId, removed };
}

/** The server's reports with what a list shows of each: whether it counts, when it posts next, why it is paused. */
export async function listReports(ctx: ReportReadContext, actor: Actor, guildId: string): Promise<ReportListing> {
	requireManageServer(actor, 'report');
	const at = clockOf(ctx)();
	const records = await createReportStore(ctx.stores).listServer(guildId);
	const reports = records.map((record): ListedReport => {
		const counted = countsTowardsLimit(record);
		return {
			record,
			counted,
			nextDue: record.paused ? null : nextPostAfter(record, at),
			pause: record.paused,
			resumable: record.paused !== null && counted,
		};
	});
	return { reports, counted: reports.filter((report) => report.counted).length, max: MAX_REPORTS_PER_SERVER };
}

/** The server's report channels as Discord names them now, deleted ones included: what a remove picker offers. */
export async function listReportChannels(
	ctx: ReportReadContext,
	actor: Actor,
	guildId: string,
): Promise<ReportChannel[]> {
	requireManageServer(actor, 'report');
	return serverChannels(ctx, createReportStore(ctx.stores), guildId);
}

/** Checks what Discord enforces anyway (a stale client, a crafted request or a form may not) and builds the record. */
export function reportRecordFrom(guildId: string, createdBy: string, input: ReportInput, since: number): ReportRecord {
	const { channel } = input;
	if (!channel || !isChannelFor('posts', channel.type)) throw new UserFacingError('report.notTextChannel');
	const every = input.every ?? DEFAULT_EVERY;
	if (!isReportFrequency(every)) throw new UserFacingError('report.invalidSchedule');
	const hour = input.hour ?? DEFAULT_HOUR;
	if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new UserFacingError('report.invalidHour');
	const timezone = (input.timezone ?? DEFAULT_TIMEZONE).trim();
	if (!isKnownTimeZone(timezone)) throw new UserFacingError('report.invalidTimezone', { timezone });
	const weekday = input.weekday ?? null;
	if (weekday !== null && every !== 'weekly') throw new UserFacingError('report.weekdayNeedsWeekly');
	if (weekday !== null && !isWeekday(weekday)) throw new UserFacingError('report.invalidSchedule');
	return {
		v: REPORT_SCHEMA_VERSION,
		guildId,
		channelId: channel.id,
		every,
		hour,
		timezone,
		weekday: every === 'weekly' ? (weekday ?? 'mon') : null,
		createdBy,
		since,
		guildLocale: input.guildLocale,
		paused: null,
	};
}

function requirePostingPermissions(channelId: string, granted: bigint): void {
	const missing = missingPermissions(granted, REPORT_PERMISSIONS);
	if (missing.length === 0) return;
	throw new UserFacingError('report.cannotPost', { channelId, permissions: permissionList(missing) });
}

async function serverChannels(ctx: ReportReadContext, reports: ReportStore, guildId: string): Promise<ReportChannel[]> {
	return describeReportChannels(ctx.guildApi, await reports.listServer(guildId));
}

/**
 * The reports that count towards the limit. At the limit, a channel deleted since its report last posted is
 * found out now (and its report paused), so an admin who deleted a channel can add another report at once.
 */
async function countedReports(ctx: ReportReadContext, reports: ReportStore, existing: ReportRecord[]): Promise<number> {
	const counted = existing.filter(countsTowardsLimit);
	if (counted.length < MAX_REPORTS_PER_SERVER) return counted.length;
	let gone = 0;
	for (const { record, state } of await describeReportChannels(ctx.guildApi, counted)) {
		if (state !== 'deleted') continue;
		await reports.put({ ...record, paused: { reason: 'channelGone', at: clockOf(ctx)() } });
		gone += 1;
	}
	return counted.length - gone;
}
