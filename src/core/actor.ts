import { ManageServerRequiredError } from '../errors.js';
import type { FacingMessage } from '../i18n/render-message.js';

/** Where a change was made: audit lines name the dashboard, a slash command needs no note. */
export type ActionOrigin = 'discord' | 'dashboard';

/**
 * Who asks a core action for a change, as the front end read them at that moment: from the interaction, or on
 * the web with the bot token when the POST arrived (never from a cache: a demoted admin's open tab must fail).
 */
export interface Actor {
	userId: string;
	/** Manage Server (or Administrator, or owner) in the server the action is about. */
	canManageServer: boolean;
	roleIds: readonly string[];
	origin: ActionOrigin;
}

/** The commands (and the dashboard's public page) whose changes need Manage Server. */
export type ManagedSubject =
	| 'server-key'
	| 'settings'
	| 'report'
	| 'statchannel'
	| 'alert'
	| 'goal'
	| 'note'
	| 'board'
	| 'public-page'
	| 'webhook';

/** Each subject's refusal, in the words its slash command has always used. */
function manageServerRefusal(subject: ManagedSubject): FacingMessage {
	if (subject === 'server-key') return { key: 'serverKey.manageServerRequired' };
	if (subject === 'public-page') return { key: 'web.manageServerNeeded' };
	return { key: 'errors.manageServerRequired', vars: { command: subject } };
}

/**
 * `default_member_permissions` only hides a command, and server owners override it per role and channel; the
 * dashboard has no such gate at all. So every action that changes a server checks Manage Server itself.
 */
export function requireManageServer(actor: Actor, subject: ManagedSubject): void {
	if (actor.canManageServer) return;
	const refusal = manageServerRefusal(subject);
	throw new ManageServerRequiredError(refusal.key, refusal.vars);
}

/** `{{actor}}` of an audit line: the member as a mention, and where the change came from when not a command. */
export function auditActor(actor: Pick<Actor, 'userId' | 'origin'>): string {
	return actor.origin === 'dashboard' ? `<@${actor.userId}> (dashboard)` : `<@${actor.userId}>`;
}

/** An action's clock: the context's (tests and the bot pin it), else the wall clock. */
export function clockOf(ctx: { now?: () => number }): () => number {
	return ctx.now ?? Date.now;
}
