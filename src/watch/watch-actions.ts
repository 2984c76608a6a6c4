// What the stat channel and alert actions share: both watch the server's account, both name a channel the bot must
// be able to use, and both keep a short list per server that is listed and removed from by one identifier.
import { UserFacingError } from '../errors.js';
import { botPermissionsIn } from '../guild-api.js';
import { missingPermissions, permissionList, type BotPermission } from '../permissions.js';
import type { CoreContext } from '../core/core-context.js';
import type { WatchContext } from './watch-context.js';
import type { RecordTable } from '../core/record-store.js';
import type { WatchPause } from './watch-record.js';
import { requireManageServer, type Actor } from '../core/actor.js';

/** What the stat channel and alert actions use of the core's services; a CoreContext has all of it. */
export type WatchActionContext = WatchContext & Pick<CoreContext, 'now'>;

/** A channel as a front end picked it; `type` null when it was not told (Discord's picker already limited it). */
export interface ChosenChannel {
	id: string;
	type: number | null;
}

/** One server's stat channels or alerts, with what a listing says about them. */
export interface WatchList<R extends { paused: WatchPause | null }> {
	records: R[];
	/** The most a server may have. */
	max: number;
	/** How often they are refreshed or checked. */
	everyMinutes: number;
	/** How late the refreshes run at worst lately, in whole minutes (0: on time); null when not known here. */
	lateMinutes?: number | null;
}

/**
 * The list action of `/alert` or `/statchannel`: only to Manage Server, the server's records beside its limits.
 */
export function watchLister<R extends { guildId: string; paused: WatchPause | null }>(
	subject: 'alert' | 'statchannel',
	tableOf: (ctx: WatchActionContext) => Pick<RecordTable<R>, 'listServer'>,
	limitsOf: (ctx: WatchActionContext) => Omit<WatchList<R>, 'records'>,
): (ctx: WatchActionContext, actor: Actor, guildId: string) => Promise<WatchList<R>> {
	return async (ctx, actor, guildId) => {
		requireManageServer(actor, subject);
		return { records: await tableOf(ctx).listServer(guildId), ...limitsOf(ctx) };
	};
}

/**
 * Asks Discord for the bot's permissions in the chosen channel (an interaction carries them only for the channel it
 * was typed in, a web form for none) and names what is missing.
 */
export async function requireBotPermissions(
	ctx: Pick<WatchContext, 'guildApi'>,
	guildId: string,
	channelId: string,
	needed: readonly BotPermission[],
): Promise<void> {
	const granted = await botPermissionsIn(ctx.guildApi, guildId, channelId);
	const missing = missingPermissions(granted, needed);
	if (missing.length === 0) return;
	throw new UserFacingError('watch.cannotUse', { channelId, permissions: permissionList(missing) });
}

/** A channel typed or picked as `<#id>`, a link or a bare id; null when it holds no id. */
export function channelIdOf(text: string | null): string | null {
	return (text ?? '').match(/\d{17,20}/g)?.at(-1) ?? null;
}

/** Deletes one record under its lock: the record that was there, or null when there was none. */
export async function removeRecord<R>(table: RecordTable<R>, guildId: string, id: string): Promise<R | null> {
	let removed: R | null = null;
	await table.update(guildId, id, (current) => {
		removed = current;
		return current === null ? undefined : null;
	});
	return removed;
}
