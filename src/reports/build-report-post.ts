import { createHash } from 'node:crypto';
import { resolveLocale, translator, type Locale } from '../i18n/index.js';
import type { ReplyFile } from '../message.js';
import { UserFacingError } from '../errors.js';
import { serverLanguage } from '../settings/language.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { showStats, type StatsDeps } from '../stats/show-stats.js';
import { embedGoalsFor } from '../goals/goal-embed.js';
import { notesForTarget } from '../notes/note-store.js';
import type { APIEmbed } from 'discord.js';
import { reportDays, type PauseReason, type ReportRecord } from './report-record.js';

/** What a report posts in its channel; the `/report add` preview shows the same. */
export interface ReportPost {
	content: string;
	embeds: APIEmbed[];
	files: ReplyFile[];
}

/** Thrown when a report cannot run until an admin acts; the report is paused with the reason. */
export class ReportPauseError extends Error {
	override name = 'ReportPauseError';
	constructor(readonly reason: PauseReason) {
		super(`report paused: ${reason}`);
	}
}

/** Reports are public posts: the server's language. */
export function reportLocale(record: Pick<ReportRecord, 'guildLocale'>): Locale {
	return resolveLocale(record.guildLocale ?? 'en-US');
}

/**
 * The stats part of a report: the server account's embed and chart. Kept in one place so the stats use case can
 * be swapped without touching the scheduler or the command.
 */
async function serverStats(ctx: StatsDeps, record: ReportRecord, locale: Locale) {
	const target = { scope: 'server', userId: record.createdBy, guildId: record.guildId } as const;
	return showStats(
		ctx,
		target,
		{ scope: 'server', days: reportDays(record.every), locale },
		embedGoalsFor(ctx, target),
		notesForTarget(ctx, target),
	);
}

/** Builds exactly what the report posts; missing or rejected server keys become a ReportPauseError. */
export async function buildReportPost(
	ctx: StatsDeps & { settings: Pick<SettingsStore, 'get'> },
	record: ReportRecord,
): Promise<ReportPost> {
	// The server's `language` setting wins over the locale the server had when the report was added.
	const settings = await ctx.settings.get(record.guildId).catch(() => null);
	const locale = settings ? serverLanguage(settings, record.guildLocale) : reportLocale(record);
	try {
		const reply = await serverStats(ctx, record, locale);
		const t = translator(locale);
		return {
			content: t(record.every === 'daily' ? 'report.postDaily' : 'report.postWeekly'),
			embeds: reply.embeds,
			files: reply.files,
		};
	} catch (error) {
		throw pauseForStatsError(error);
	}
}

function pauseForStatsError(error: unknown): unknown {
	if (!(error instanceof UserFacingError)) return error;
	if (error.key === 'stats.noServerLink') return new ReportPauseError('noServerKey');
	// A key no configured secret opens has to be set again, just like a rejected one.
	if (error.key === 'errors.serverKeyRejected' || error.key === 'errors.serverRelinkNeeded') {
		return new ReportPauseError('keyRejected');
	}
	return error;
}

/** At most 25 characters, the same in every process for one report and due slot. */
export function reportNonce(record: Pick<ReportRecord, 'guildId' | 'channelId'>, slot: string): string {
	return createHash('sha256').update(`${record.guildId}:${record.channelId}:${slot}`).digest('hex').slice(0, 25);
}
