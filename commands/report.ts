import { auditActor } from '../src/actor.js';
import { actorOf } from '../src/discord/actor-of.js';
import { PermissionFlagsBits, time, TimestampStyles } from 'discord.js';
import { resolveLocale, translator } from '../src/i18n/index.js';
import type { BotContext } from '../src/discord/context.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { describePause, describeSchedule, permissionList } from '../src/reports/describe-pause.js';
import { buildReportPost, ReportPauseError } from '../src/reports/build-report-post.js';
import {
	countsTowardsLimit,
	isReportFrequency,
	isWeekday,
	MAX_REPORTS_PER_SERVER,
	REPORT_PERMISSIONS,
	REPORT_SCHEMA_VERSION,
	type ReportPermission,
	type ReportRecord,
} from '../src/reports/report-record.js';
import {
	describeReportChannels,
	isChannelReference,
	reportChannelNamed,
	type ReportChannel,
} from '../src/reports/report-channels.js';
import { createReportStore, type ReportStore } from '../src/reports/report-store.js';
import { isKnownTimeZone, matchTimeZones, nextDueAfter } from '../src/reports/schedule.js';
import { auditTime, postAudit } from '../src/settings/audit.js';
import { serverLanguage } from '../src/settings/language.js';
import { claimLock } from '../src/store/locks.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'report';

const DEFAULT_HOUR = 9;
const DEFAULT_TIMEZONE = 'UTC';
const TEXT_CHANNEL_TYPES: readonly number[] = [0, 5];
const PERMISSION_BITS: Record<ReportPermission, bigint> = {
	viewChannel: PermissionFlagsBits.ViewChannel,
	sendMessages: PermissionFlagsBits.SendMessages,
	embedLinks: PermissionFlagsBits.EmbedLinks,
	attachFiles: PermissionFlagsBits.AttachFiles,
};

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction);
	if (interaction.subcommand === 'add') return add(interaction, ctx, guildId);
	if (interaction.subcommand === 'remove') return remove(interaction, ctx, guildId);
	return list(interaction, ctx, guildId);
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name === 'timezone') {
		await interaction.respond(matchTimeZones(interaction.focused.value).map((name) => ({ name, value: name })));
		return;
	}
	if (interaction.focused?.name !== 'channel') return interaction.respond([]);
	// The list names the server's report channels: only for those who may run /report.
	const guildId = interaction.guildId;
	const mayManage = ((interaction.memberPermissions ?? 0n) & PermissionFlagsBits.ManageGuild) !== 0n;
	if (guildId === null || !mayManage) return interaction.respond([]);
	await interaction.respond(await reportChannelChoices(interaction, ctx, guildId, interaction.focused.value));
}

/** Choice names are plain text (no mentions) of at most 100 characters; the value is the channel id. */
const MAX_CHOICE_NAME = 100;

/** The server's reports as `/report remove` offers them: by channel name, a deleted channel's included. */
async function reportChannelChoices(
	interaction: AutocompleteInteraction,
	ctx: BotContext,
	guildId: string,
	typed: string,
): Promise<{ name: string; value: string }[]> {
	const t = memberTranslator(interaction);
	const records = await createReportStore(ctx.stores).listServer(guildId);
	const channels = await describeReportChannels(ctx.guildApi, records);
	const wanted = typed.trim().replace(/^#/, '').toLowerCase();
	return channels
		.map(({ record, state, name }) => {
			const schedule = describeSchedule(t, record);
			const label =
				state === 'deleted'
					? t('reportRemove.choiceDeleted', { channelId: record.channelId, schedule })
					: name === null
						? t('reportRemove.choiceUnnamed', { channelId: record.channelId, schedule })
						: t('reportRemove.choice', { name, schedule });
			return { name: label.slice(0, MAX_CHOICE_NAME), value: record.channelId };
		})
		.filter((choice) => wanted === '' || choice.name.toLowerCase().includes(wanted) || choice.value.includes(wanted));
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const t = memberTranslator(interaction);
	const draft = readSchedule(interaction, guildId);
	const link = await ctx.links.getServerLink(guildId);
	if (!link) throw new UserFacingError('report.needsServerKey');
	if (!link.readable) throw new UserFacingError('errors.serverRelinkNeeded');
	requirePostingPermissions(interaction, draft.channelId);
	await interaction.defer('private');
	const reports = createReportStore(ctx.stores);
	// The same post the schedule builds, so the preview shows exactly what will appear; a rejected key stops here.
	const post = await buildReportPost(ctx, draft).catch((error: unknown) => {
		if (!(error instanceof ReportPauseError)) throw error;
		throw new UserFacingError(error.reason === 'noServerKey' ? 'report.needsServerKey' : 'errors.serverKeyRejected');
	});
	// Two admins adding at once must not get past the limit together.
	const previous = await claimLock(ctx.coordinator)(`reports:${guildId}`, async () => {
		const existing = await reports.listServer(guildId);
		const same = existing.find((record) => record.channelId === draft.channelId) ?? null;
		if (!same && (await countedReports(ctx, reports, existing)) >= MAX_REPORTS_PER_SERVER) {
			throw new UserFacingError('report.tooMany', { max: MAX_REPORTS_PER_SERVER });
		}
		await reports.put(draft);
		return same;
	});
	const key = previous === null ? 'report.added' : previous.paused ? 'report.resumed' : 'report.replaced';
	const confirmation = t(key, { channelId: draft.channelId, schedule: describeSchedule(t, draft) });
	await interaction.editReply({
		content: `${confirmation}\n\n${post.content}`,
		embeds: post.embeds,
		files: post.files,
	});
	const serverT = translator(serverLanguage(await ctx.settings.get(guildId), interaction.guildLocale));
	await postAudit(
		ctx,
		guildId,
		{
			key: 'audit.reportAdded',
			vars: {
				actor: auditActor(actorOf(interaction)),
				channelId: draft.channelId,
				schedule: describeSchedule(serverT, draft),
				when: auditTime(),
			},
		},
		{ guildLocale: interaction.guildLocale },
	);
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	// A string since the channel may be deleted, which Discord's channel picker no longer offers. A client
	// with the older registration still sends a channel option: its value is the id too.
	const typed = interaction.options.string('channel') ?? interaction.options.channel('channel')?.id ?? '';
	await interaction.defer('private');
	const reports = createReportStore(ctx.stores);
	const channelId = reportChannelNamed(
		typed,
		isChannelReference(typed) ? [] : await serverChannels(ctx, reports, guildId),
	);
	if (channelId === null) throw new UserFacingError('reportRemove.pickFromList');
	const removed = await reports.remove(guildId, channelId);
	await interaction.editReply({
		content: memberTranslator(interaction)(removed ? 'report.removed' : 'report.notFound', { channelId }),
	});
	if (removed) {
		await postAudit(
			ctx,
			guildId,
			{ key: 'audit.reportRemoved', vars: { actor: auditActor(actorOf(interaction)), channelId, when: auditTime() } },
			{ guildLocale: interaction.guildLocale },
		);
	}
}

async function serverChannels(ctx: BotContext, reports: ReportStore, guildId: string): Promise<ReportChannel[]> {
	return describeReportChannels(ctx.guildApi, await reports.listServer(guildId));
}

/**
 * The reports that count towards the limit. At the limit, a channel deleted since its report last posted is
 * found out now (and its report paused), so an admin who deleted a channel can add another report at once.
 */
async function countedReports(ctx: BotContext, reports: ReportStore, existing: ReportRecord[]): Promise<number> {
	const counted = existing.filter(countsTowardsLimit);
	if (counted.length < MAX_REPORTS_PER_SERVER) return counted.length;
	let gone = 0;
	for (const { record, state } of await describeReportChannels(ctx.guildApi, counted)) {
		if (state !== 'deleted') continue;
		await reports.put({ ...record, paused: { reason: 'channelGone', at: Date.now() } });
		gone += 1;
	}
	return counted.length - gone;
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const t = memberTranslator(interaction);
	const locale = resolveLocale(interaction.locale);
	await interaction.defer('private');
	const records = await createReportStore(ctx.stores).listServer(guildId);
	if (records.length === 0) {
		await interaction.editReply({ content: t('report.listEmpty') });
		return;
	}
	const counted = records.filter(countsTowardsLimit).length;
	const lines = [t('report.listHeader', { count: counted, max: MAX_REPORTS_PER_SERVER })];
	for (const record of records) {
		const schedule = describeSchedule(t, record);
		if (record.paused) {
			const reason = describePause(t, locale, record.paused);
			lines.push(t('report.listItemPaused', { channelId: record.channelId, schedule, reason }));
			continue;
		}
		const next = nextDueAfter(record, interaction.createdAt);
		const when = next === null ? '—' : time(Math.floor(next / 1000), TimestampStyles.LongDateTime);
		lines.push(t('report.listItem', { channelId: record.channelId, schedule, next: when }));
	}
	if (records.some((record) => record.paused && countsTowardsLimit(record))) lines.push(t('report.resumeHint'));
	if (counted < records.length) lines.push(t('reportRemove.goneHint', { max: MAX_REPORTS_PER_SERVER }));
	await interaction.editReply({ content: lines.join('\n') });
}

/** Checks what Discord enforces anyway (a stale client or a crafted request may not) and builds the record. */
function readSchedule(interaction: CommandInteraction, guildId: string): ReportRecord {
	const { options } = interaction;
	const channel = options.channel('channel');
	if (!channel || (channel.type !== null && !TEXT_CHANNEL_TYPES.includes(channel.type))) {
		throw new UserFacingError('report.notTextChannel');
	}
	const every = options.string('every') ?? 'daily';
	if (!isReportFrequency(every)) throw new UserFacingError('report.invalidSchedule');
	const hour = options.integer('hour') ?? DEFAULT_HOUR;
	if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new UserFacingError('report.invalidHour');
	const timezone = (options.string('timezone') ?? DEFAULT_TIMEZONE).trim();
	if (!isKnownTimeZone(timezone)) throw new UserFacingError('report.invalidTimezone', { timezone });
	const weekday = options.string('weekday');
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
		createdBy: interaction.userId,
		since: interaction.createdAt,
		guildLocale: interaction.guildLocale,
		paused: null,
	};
}

/**
 * Discord sends the bot's permissions for the channel the command was typed in only, so the check is exact
 * there; elsewhere the first post finds out, and pauses the report when it cannot post.
 */
function requirePostingPermissions(interaction: CommandInteraction, channelId: string): void {
	if (interaction.appPermissions === null || channelId !== interaction.channelId) return;
	const granted = interaction.appPermissions;
	const administrator = (granted & PermissionFlagsBits.Administrator) !== 0n;
	const missing = REPORT_PERMISSIONS.filter((name) => !administrator && (granted & PERMISSION_BITS[name]) === 0n);
	if (missing.length === 0) return;
	const t = memberTranslator(interaction);
	const permissions = permissionList(t, resolveLocale(interaction.locale), missing);
	throw new UserFacingError('report.cannotPost', { channelId, permissions });
}

/** `default_member_permissions` can be overridden per role and channel, so Manage Server is checked on every run. */
function requireManageServer(interaction: CommandInteraction): string {
	if (interaction.guildId === null) throw new UserFacingError('errors.guildOnly', { command: 'report' });
	if (((interaction.memberPermissions ?? 0n) & PermissionFlagsBits.ManageGuild) === 0n) {
		throw new UserFacingError('errors.manageServerRequired', { command: 'report' });
	}
	return interaction.guildId;
}
