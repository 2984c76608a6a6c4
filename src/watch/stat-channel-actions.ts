// Adding, removing and listing a server's stat channels: the whole rule, for `/statchannel` and the dashboard alike.
import { jobLateness, type JobLateness } from '../core/periodic-runner.js';
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { isChannelFor } from '../channel-kinds.js';
import { requireServerKey } from '../core/require-server-key.js';
import { UserFacingError } from '../errors.js';
import { translator } from '../i18n/index.js';
import { auditTime } from '../settings/audit.js';
import { describeFigure } from './describe-watch.js';
import { statChannelPermissions } from './permissions.js';
import { refreshStatChannel, STAT_CHANNEL_JOB } from './stat-channel-job.js';
import { channelIdOf, removeRecord, requireBotPermissions, watchLister } from './watch-actions.js';
import type { ChosenChannel, WatchActionContext } from './watch-actions.js';
import { serverLocale } from '../settings/language.js';
import { auditWatch, statChannelDeps, watchStoreOf } from './watch-context.js';
import {
	isStatFigure,
	MAX_STAT_CHANNELS_PER_SERVER,
	WATCH_SCHEMA_VERSION,
	type StatChannelRecord,
	type WatchPause,
} from './watch-record.js';

/** `/statchannel add`'s options, or the dashboard's form fields, as given: the action checks every one. */
export interface StatChannelInput {
	channel: ChosenChannel | null;
	figure: string | null;
	/** The server's Discord locale, for the channel's name while the server has no language set. */
	guildLocale: string | null;
}

/**
 * Where the channel stands once added and refreshed at once: named (the rename went through or the name was
 * already right), later (the rename budget, a 429 or a failed read leaves it to the next refresh), or paused
 * (Discord refused the rename).
 */
export type StatChannelAdded =
	| { state: 'named'; record: StatChannelRecord; name: string }
	| { state: 'later'; record: StatChannelRecord }
	| { state: 'paused'; record: StatChannelRecord; pause: WatchPause };

/** Makes a channel a stat channel (or changes its figure), renames it at once and posts the audit line. */
export async function addStatChannel(
	ctx: WatchActionContext,
	actor: Actor,
	guildId: string,
	input: StatChannelInput,
): Promise<StatChannelAdded> {
	requireManageServer(actor, 'statchannel');
	const { channel, figure } = input;
	if (!channel?.id || !isChannelFor('statChannel', channel.type)) {
		throw new UserFacingError('watch.statChannel.wrongType');
	}
	if (!isStatFigure(figure)) throw new UserFacingError('watch.statChannel.invalidFigure');
	await requireServerKey(ctx, guildId, 'watch.needsServerKey');
	await requireBotPermissions(ctx, guildId, channel.id, statChannelPermissions(channel.type));
	const now = clockOf(ctx);
	const watch = watchStoreOf(ctx);
	// Two admins adding at once must not get past the limit together.
	const record = await watch.withServerLock('statchannel', guildId, async () => {
		const existing = await watch.statChannels.listServer(guildId);
		const previous = existing.find((candidate) => candidate.channelId === channel.id) ?? null;
		const kept = previous ?? (await watch.keptRenameBudget(channel.id));
		if (!previous && existing.length >= MAX_STAT_CHANNELS_PER_SERVER) {
			throw new UserFacingError('watch.statChannel.tooMany', { max: MAX_STAT_CHANNELS_PER_SERVER });
		}
		const next: StatChannelRecord = {
			v: WATCH_SCHEMA_VERSION,
			guildId,
			channelId: channel.id,
			figure,
			createdBy: actor.userId,
			createdAt: now(),
			guildLocale: input.guildLocale,
			paused: null,
			// The budget stays with the channel: removing and adding it again must not buy extra renames.
			name: previous?.figure === figure ? previous.name : null,
			renames: kept?.renames ?? [],
			blockedUntil: kept?.blockedUntil ?? 0,
			pending: null,
		};
		await watch.statChannels.put(next);
		return next;
	});
	const outcome = await refreshStatChannel(statChannelDeps(ctx, now), record);
	const stored = await watch.statChannels.get(guildId, channel.id);
	const serverT = translator(await serverLocale(ctx, guildId, input.guildLocale));
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.statChannelAdded',
			vars: {
				actor: auditActor(actor),
				channelId: channel.id,
				figure: describeFigure(serverT, figure),
				when: auditTime(now()),
			},
		},
		input.guildLocale,
	);
	if ((outcome === 'renamed' || outcome === 'unchanged') && stored?.name) {
		return { state: 'named', record: stored, name: stored.name };
	}
	if (stored?.paused) return { state: 'paused', record: stored, pause: stored.paused };
	return { state: 'later', record: stored ?? record };
}

/**
 * Removes the stat channel named by `channelText` (`<#id>`, a link or a bare id, so one Discord no longer lists
 * can be removed too) and posts the audit line when there was one. The channel's rename budget is kept.
 */
export async function removeStatChannel(
	ctx: WatchActionContext,
	actor: Actor,
	guildId: string,
	channelText: string | null,
): Promise<{ channelId: string | null; removed: boolean }> {
	requireManageServer(actor, 'statchannel');
	const channelId = channelIdOf(channelText);
	if (channelId === null) return { channelId, removed: false };
	const watch = watchStoreOf(ctx);
	const now = clockOf(ctx);
	const removed = await removeRecord(watch.statChannels, guildId, channelId);
	if (!removed) return { channelId, removed: false };
	await watch.keepRenameBudget(removed, now());
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.statChannelRemoved',
			vars: { actor: auditActor(actor), channelId, when: auditTime(now()) },
		},
		removed.guildLocale,
	);
	return { channelId, removed: true };
}

/** The server's stat channels, paused and deleted ones included. */
export const listStatChannels = watchLister<StatChannelRecord>(
	'statchannel',
	(ctx) => watchStoreOf(ctx).statChannels,
	(ctx) => ({
		max: MAX_STAT_CHANNELS_PER_SERVER,
		everyMinutes: ctx.config.statChannelMinutes,
		lateMinutes: lateMinutesOf(jobLateness(STAT_CHANNEL_JOB)),
	}),
);

/** A job's worst recent lateness in whole minutes, from this process's view (each process serves its share). */
function lateMinutesOf(lateness: JobLateness | null): number | null {
	return lateness === null ? null : Math.floor(lateness.worstMs / 60_000);
}
