import type { ChannelRefusal } from '../../errors.js';
import type { FacingMessage, MessageKey } from '../../i18n/index.js';
import type { WatchPause } from '../../watch/watch-record.js';

// What a form did, in one line: the POST answers 303 with `?done=<code>` and the page it goes back to says it.
// Only these codes exist, so nothing a member typed (a key least of all) can ride in the redirect.

/** A record added paused, with the reason as `describeWatchPause` words it. */
function paused(key: MessageKey, reason: ChannelRefusal): FacingMessage {
	return { key, vars: { reason: { key: `watch.paused.${reason}` } } };
}

/** The outcome code of an add that left the record paused (a stat channel or board Discord refused at once). */
export function pausedOutcome(subject: 'statchannel' | 'board', pause: WatchPause): ManageOutcome {
	return `${subject}-paused-${pause.reason === 'channelGone' ? 'gone' : 'permissions'}`;
}

const MANAGE_OUTCOMES = {
	'key-set': 'web.manage.done.keySet',
	'key-removed': 'serverKey.removed',
	'key-absent': 'serverKey.nothingToRemove',
	'settings-saved': 'web.manage.done.settingsSaved',
	'settings-unchanged': 'settings.resetCancelled',
	'settings-reset': 'settings.resetDone',
	'report-added': 'web.manage.done.reportAdded',
	'report-replaced': 'web.manage.done.reportReplaced',
	'report-resumed': 'web.manage.done.reportResumed',
	'report-removed': 'web.manage.done.reportRemoved',
	'statchannel-added': 'web.manage.done.statChannelAdded',
	// Added, yet Discord refused the bot there at once: what `/statchannel add` and `/board add` answer then.
	'statchannel-paused-gone': paused('web.manage.done.statChannelPaused', 'channelGone'),
	'statchannel-paused-permissions': paused('web.manage.done.statChannelPaused', 'missingPermissions'),
	'statchannel-removed': 'web.manage.done.statChannelRemoved',
	'alert-added': 'web.manage.done.alertAdded',
	'alert-removed': 'web.manage.done.alertRemoved',
	'goal-set': 'web.manage.done.goalSet',
	'goal-removed': 'web.manage.done.goalRemoved',
	'note-added': 'web.manage.done.noteAdded',
	'note-removed': 'web.manage.done.noteRemoved',
	'board-added': 'web.manage.done.boardAdded',
	'board-paused-gone': paused('web.manage.done.boardPaused', 'channelGone'),
	'board-paused-permissions': paused('web.manage.done.boardPaused', 'missingPermissions'),
	'board-removed': 'web.manage.done.boardRemoved',
	'webhook-removed': 'webhook.web.removedDone',
	'nothing-removed': 'web.manage.done.nothingRemoved',
	'public-on': 'web.manage.done.publicOn',
	'public-off': 'web.manage.done.publicOff',
} as const satisfies Record<string, MessageKey | FacingMessage>;

const ACCOUNT_OUTCOMES = {
	'key-linked': 'web.me.done.linked',
	unlinked: 'unlink.removed',
	'nothing-unlinked': 'unlink.nothing',
	'note-added': 'web.manage.done.noteAdded',
	'note-removed': 'web.manage.done.noteRemoved',
	'nothing-removed': 'web.manage.done.nothingRemoved',
} as const satisfies Record<string, MessageKey>;

export type ManageOutcome = keyof typeof MANAGE_OUTCOMES;
export type AccountOutcome = keyof typeof ACCOUNT_OUTCOMES;

/** The line for `?done=` on the manage page; null for no code or one we never send. */
export function manageOutcomeLine(code: string | undefined): FacingMessage | null {
	if (code === undefined || !Object.hasOwn(MANAGE_OUTCOMES, code)) return null;
	const outcome: MessageKey | FacingMessage = MANAGE_OUTCOMES[code as ManageOutcome];
	return typeof outcome === 'string' ? { key: outcome } : outcome;
}

/** The line for `?done=` on a server page: only the public link's switch, its one form, answers there. */
export function serverPageOutcomeLine(code: string | undefined): MessageKey | null {
	return code === 'public-on' || code === 'public-off' ? MANAGE_OUTCOMES[code] : null;
}

/** The line for `?done=` on `/me`. */
export function accountOutcomeLine(code: string | undefined): MessageKey | null {
	return code !== undefined && Object.hasOwn(ACCOUNT_OUTCOMES, code) ? ACCOUNT_OUTCOMES[code as AccountOutcome] : null;
}
