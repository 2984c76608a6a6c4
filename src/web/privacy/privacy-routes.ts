import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { forgetMember } from '../../privacy/forget-member.js';
import { exportMember } from '../../privacy/member-data.js';
import { HttpError } from '../http-error.js';
import { apiSession, formSession } from '../middleware.js';
import { sendPage } from '../respond.js';
import type { Site } from '../site.js';
import type { WebDeps } from '../web-deps.js';
import { translatorOf, type WebEnv } from '../web-env.js';
import { privacyPageBody } from './privacy-page.js';

/** The privacy page, and a member's own data: the export as a download, and deletion (then logged out). */
export function privacyRoutes(deps: WebDeps, site: Site): Hono<WebEnv> {
	const privacy = new Hono<WebEnv>();

	privacy.get('/privacy', (c) => {
		if (deps.config.privacyPolicyUrl) return c.redirect(deps.config.privacyPolicyUrl, 302);
		const t = translatorOf(c);
		return sendPage(c, t('web.privacy.title'), privacyPageBody(t, deps.config));
	});

	privacy.get('/me/data.json', apiSession, async (c) => {
		const exported = await exportMember(deps, c.get('member').userId);
		const file = `adstats-my-data-${exported.generated_at.slice(0, 10)}.json`;
		return c.body(`${JSON.stringify(exported, null, 2)}\n`, 200, {
			'Content-Type': 'application/json; charset=utf-8',
			'Content-Disposition': `attachment; filename="${file}"`,
		});
	});

	privacy.post('/me/delete', formSession, async (c) => {
		const form = await c.req.parseBody();
		// A stray or half-filled form deletes nothing: only the ticked confirmation does.
		if (form.confirm !== 'yes') {
			throw new HttpError(
				400,
				{ key: 'web.privacy.confirmNeeded' },
				{ links: [{ href: '/me', label: { key: 'web.me.back' } }] },
			);
		}
		// The sessions are the member's records: forgetting ends this one with every other.
		await forgetMember(deps, c.get('member').userId);
		deleteCookie(c, site.sessionCookie, site.cookieBase);
		return c.redirect('/', 303);
	});

	return privacy;
}
