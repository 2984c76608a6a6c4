import type { Context } from 'hono';
import { refusalError } from '../http-error.js';
import { mentionNamesOf, readManagedServer, type ManagedServer } from './manage-access.js';
import type { ManageOutcome } from './manage-outcomes.js';
import type { WebDeps } from '../web-deps.js';
import { langQuery, type MemberEnv } from '../web-env.js';

// What every form of the manage page does around its core action: read the member and the form, turn a refusal
// into the slash command's words on a page, and answer a success with 303 back to the page.

export type Form = Record<string, string | File>;

/** A form field as text; '' when absent (or a file, which no form of ours sends). */
export function field(form: Form, name: string): string {
	const value = form[name];
	return typeof value === 'string' ? value : '';
}

/** A whole number as a form sends it; null when empty, NaN when not a number (the action names the range). */
export function numberField(form: Form, name: string): number | null {
	const value = field(form, name).trim();
	if (value === '') return null;
	return /^-?\d{1,15}(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
}

export interface ManageForms {
	/** The form's fields and the member as the bot token reads them now. */
	posted(c: Context<MemberEnv>): Promise<{ server: ManagedServer; form: Form }>;
	/** Runs the action; its refusal becomes a 400 (403 for permissions) page in the slash command's words. */
	refusing<T>(c: Context<MemberEnv>, server: ManagedServer, run: () => Promise<T> | T): Promise<T>;
	/** POST-redirect-GET: a reload of the page shows the outcome again and sends nothing twice. */
	back(c: Context<MemberEnv>, server: ManagedServer, outcome: ManageOutcome, section: string): Response;
}

export function manageForms(deps: Pick<WebDeps, 'botGuilds'>): ManageForms {
	return {
		async posted(c) {
			const server = await readManagedServer(deps.botGuilds, c.get('member'), c.req.param('guildId') ?? '', {
				fresh: true,
			});
			return { server, form: await c.req.parseBody() };
		},
		async refusing(c, server, run) {
			try {
				return await run();
			} catch (error) {
				const channels = await deps.botGuilds.channels(server.guildId).catch(() => null);
				throw refusalError(error, {
					back: { href: `/servers/${server.guildId}/manage${langQuery(c, '?')}`, label: 'web.manage.back' },
					names: mentionNamesOf(server.guild, channels),
				});
			}
		},
		back(c, server, outcome, section) {
			const lang = langQuery(c, '&');
			return c.redirect(`/servers/${server.guildId}/manage?done=${outcome}${lang}#${section}`, 303);
		},
	};
}
