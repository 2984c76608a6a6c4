// Adding, removing and listing a server's alerts: the whole rule, for `/alert` and the dashboard alike.
import { randomBytes } from 'node:crypto';
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { isChannelFor } from '../channel-kinds.js';
import { requireServerKey } from '../core/require-server-key.js';
import { UserFacingError } from '../errors.js';
import { translator } from '../i18n/index.js';
import { auditTime } from '../settings/audit.js';
import { fetchStatsFor } from '../stats/resolve-key.js';
import { describeRule } from './describe-watch.js';
import { ALERT_PERMISSIONS } from './permissions.js';
import { removeRecord, requireBotPermissions, watchLister } from './watch-actions.js';
import type { ChosenChannel, WatchActionContext } from './watch-actions.js';
import { serverLocale } from '../settings/language.js';
import { auditWatch, watchStoreOf } from './watch-context.js';
import {
	ALERT_THRESHOLDS,
	freshAlertState,
	GOAL_ALERT_KINDS,
	isAlertKind,
	MAX_ALERTS_PER_SERVER,
	WATCH_SCHEMA_VERSION,
	type AlertKind,
	type AlertRecord,
} from './watch-record.js';

const ID_LENGTH = 4;

/** `/alert add`'s options, or the dashboard's form fields, as given: the action checks every one. */
export interface AlertInput {
	kind: string | null;
	channel: ChosenChannel | null;
	threshold: number | null;
	/** The server's Discord locale, for the alert's posts while the server has no language set. */
	guildLocale: string | null;
}

/** Adds an alert and posts the audit line; the stored record. */
export async function addAlert(
	ctx: WatchActionContext,
	actor: Actor,
	guildId: string,
	input: AlertInput,
): Promise<AlertRecord> {
	requireManageServer(actor, 'alert');
	const { kind, channel } = input;
	if (!isAlertKind(kind)) throw new UserFacingError('watch.alert.invalidKind');
	if (!channel?.id || !isChannelFor('posts', channel.type)) throw new UserFacingError('watch.alert.notTextChannel');
	const threshold = readThreshold(kind, input.threshold);
	await requireServerKey(ctx, guildId, 'watch.needsServerKey');
	await requireBotPermissions(ctx, guildId, channel.id, ALERT_PERMISSIONS);
	if (kind === 'sends-milestone' || kind === 'joins-milestone') {
		// Also proves the key works; a milestone already passed would fire at once, about nothing new.
		const { snapshot } = await fetchStatsFor(ctx, { scope: 'server', userId: actor.userId, guildId });
		const value = snapshot[kind === 'sends-milestone' ? 'sends' : 'joins'].allTime;
		if (value !== null && value >= threshold) throw new UserFacingError('watch.alert.milestonePassed', { value });
	}
	const now = clockOf(ctx);
	const watch = watchStoreOf(ctx);
	// Two admins adding at once must not get past the limit together.
	const record = await watch.withServerLock('alert', guildId, async () => {
		const existing = await watch.alerts.listServer(guildId);
		if (existing.length >= MAX_ALERTS_PER_SERVER) {
			throw new UserFacingError('watch.alert.tooMany', { max: MAX_ALERTS_PER_SERVER });
		}
		const taken = new Set(existing.map((alert) => alert.id));
		let id = newAlertId();
		while (taken.has(id)) id = newAlertId();
		const next: AlertRecord = {
			v: WATCH_SCHEMA_VERSION,
			id,
			guildId,
			channelId: channel.id,
			kind,
			threshold,
			createdBy: actor.userId,
			createdAt: now(),
			guildLocale: input.guildLocale,
			paused: null,
			state: freshAlertState(),
		};
		await watch.alerts.put(next);
		return next;
	});
	const language = await serverLocale(ctx, guildId, input.guildLocale);
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.alertAdded',
			vars: {
				actor: auditActor(actor),
				id: record.id,
				rule: describeRule(translator(language), language, record),
				channelId: record.channelId,
				when: auditTime(now()),
			},
		},
		input.guildLocale,
	);
	return record;
}

/** Removes the alert `id` (as typed: any case, spaces around) and posts the audit line when there was one. */
export async function removeAlert(
	ctx: WatchActionContext,
	actor: Actor,
	guildId: string,
	id: string | null,
): Promise<{ id: string; removed: boolean }> {
	requireManageServer(actor, 'alert');
	const wanted = (id ?? '').trim().toLowerCase();
	if (wanted === '') return { id: wanted, removed: false };
	const removed = await removeRecord(watchStoreOf(ctx).alerts, guildId, wanted);
	if (!removed) return { id: wanted, removed: false };
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.alertRemoved',
			vars: { actor: auditActor(actor), id: wanted, when: auditTime(clockOf(ctx)()) },
		},
		removed.guildLocale,
	);
	return { id: wanted, removed: true };
}

/** The server's alerts, ordered by id. */
export const listAlerts = watchLister<AlertRecord>(
	'alert',
	(ctx) => watchStoreOf(ctx).alerts,
	(ctx) => ({ max: MAX_ALERTS_PER_SERVER, everyMinutes: ctx.config.alertCheckMinutes }),
);

/** Whole numbers within the kind's range (the table of docs/watch.md). */
function readThreshold(kind: AlertKind, value: number | null): number {
	if (GOAL_ALERT_KINDS.includes(kind)) return 0;
	const { min, max } = ALERT_THRESHOLDS[kind];
	if (value !== null && Number.isInteger(value) && value >= min && value <= max) return value;
	if (kind === 'sends-milestone' || kind === 'joins-milestone') {
		throw new UserFacingError('watch.alert.invalidMilestone');
	}
	throw new UserFacingError('watch.alert.invalidThreshold', { min, max });
}

function newAlertId(): string {
	return [...randomBytes(ID_LENGTH)].map((byte) => (byte % 36).toString(36)).join('');
}
