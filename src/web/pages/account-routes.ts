import { Hono, type Context } from 'hono';
import type { Actor } from '../../core/actor.js';
import { addNote, removeNote } from '../../notes/note-actions.js';
import { link, unlink } from '../../stats/link-actions.js';
import { refusalError } from '../http-error.js';
import type { AccountOutcome } from '../manage/manage-outcomes.js';
import { formSession } from '../middleware.js';
import type { WebDeps } from '../web-deps.js';
import { langQuery, type MemberEnv, type WebEnv } from '../web-env.js';

/** A member links or unlinks their own account from `/me`, through the actions `/link` and `/unlink` call. */
export function accountRoutes(deps: WebDeps): Hono<WebEnv> {
	const account = new Hono<WebEnv>();

	account.post('/me/key', formSession, async (c) => {
		const form = await c.req.parseBody();
		const key = typeof form.key === 'string' ? form.key : '';
		const userId = c.get('member').userId;
		const refused = (error: unknown) => refusalError(error, { back: { href: mePath(c), label: 'web.me.back' } });
		// The key goes to the action and nowhere else: not a log line, not the page, not the redirect.
		await link(deps, userId, key).catch((error: unknown) => {
			throw refused(error);
		});
		return back(c, 'key-linked');
	});

	account.post('/me/unlink', formSession, async (c) => {
		const { removed } = await unlink(deps, c.get('member').userId).catch((error: unknown) => {
			throw refusalError(error, { back: { href: mePath(c), label: 'web.me.back' } });
		});
		return back(c, removed ? 'unlinked' : 'nothing-unlinked');
	});

	// The member's own notes, through the actions `/note add` and `/note remove` call (scope me).
	account.post('/me/notes', formSession, async (c) => {
		const form = await c.req.parseBody();
		const text = (name: string) => (typeof form[name] === 'string' ? form[name] : '');
		const actor: Actor = { userId: c.get('member').userId, canManageServer: false, roleIds: [], origin: 'dashboard' };
		const scope = { scope: 'me', guildId: null };
		const refused = (error: unknown) => refusalError(error, { back: { href: mePath(c), label: 'web.me.back' } });
		if (text('action') === 'remove') {
			const { removed } = await removeNote(deps, actor, { ...scope, note: text('note') || null }).catch(
				(error: unknown) => {
					throw refused(error);
				},
			);
			return back(c, removed ? 'note-removed' : 'nothing-removed');
		}
		await addNote(deps, actor, { ...scope, date: text('date') || null, text: text('text') }).catch((error: unknown) => {
			throw refused(error);
		});
		return back(c, 'note-added');
	});

	function mePath(c: Context<MemberEnv>): string {
		return `/me${langQuery(c, '?')}`;
	}

	function back(c: Context<MemberEnv>, outcome: AccountOutcome) {
		return c.redirect(`/me?done=${outcome}${langQuery(c, '&')}`, 303);
	}

	return account;
}
