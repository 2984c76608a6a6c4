import { Hono, type Context } from 'hono';
import { describeExpectedError } from '../../error-messages.js';
import { renderMessage } from '../../i18n/index.js';
import { publicToken } from '../../settings/public-page.js';
import { utcDateOf } from '../../history/utc-days.js';
import type { StatsRequest, StatsTarget } from '../../stats/request.js';
import { discordTextToHtml, html } from '../html.js';
import { notFoundError, HttpError } from '../http-error.js';
import { pageSession } from '../middleware.js';
import { accountKeyForms, outcomeLine } from './account-page.js';
import { accountOutcomeLine, serverPageOutcomeLine } from '../manage/manage-outcomes.js';
import { loggedInHome, loggedOutHome } from './home-page.js';
import { messageBody } from '../layout.js';
import { manageLink, publicLinkForm } from './server-page.js';
import { statsBody } from './stats-page.js';
import { sendPage } from '../respond.js';
import { checkServerAccess, serversToSetUp, visibleServers } from './server-access.js';
import type { Site } from '../site.js';
import { isNoUserLink, readStatsRequest, statsFailure } from './stats-request.js';
import { loadDashboardStats, type DashboardStats, type FoldHistory } from './stats-view.js';
import type { WebDeps } from '../web-deps.js';
import { askedLang, langQuery, localeOf, translatorOf, type MemberEnv, type WebEnv } from '../web-env.js';
import { myDataSection } from '../privacy/privacy-page.js';
import { describeHeld } from '../../privacy/describe-privacy.js';
import { showMember } from '../../privacy/member-data.js';
import { notesSection } from '../manage/manage-notes.js';
import { listNotes } from '../../notes/note-actions.js';
import type { Actor } from '../../core/actor.js';

/** The member on their own page: their own records only, nothing of a server's. */
const meActor = (userId: string): Actor => ({ userId, canManageServer: false, roleIds: [], origin: 'dashboard' });

/** The member's pages: the start page, their own account, a server's account. */
export function pageRoutes(deps: WebDeps, site: Site, foldHistory: FoldHistory): Hono<WebEnv> {
	const pages = new Hono<WebEnv>();
	const now = deps.now ?? Date.now;

	pages.get('/', async (c) => {
		const session = c.get('session');
		const t = translatorOf(c);
		if (!session) return sendPage(c, t('web.siteName'), loggedOutHome(t));
		const [servers, toSetUp] = await Promise.all([visibleServers(deps, session), serversToSetUp(deps, session)]);
		return sendPage(c, t('web.siteName'), loggedInHome(t, servers, langQuery(c, '?'), toSetUp));
	});

	pages.get('/me', pageSession, async (c) => {
		const t = translatorOf(c);
		const request = readStatsRequest(c, null, { today: utcDateOf(now()) });
		const target: StatsTarget = { scope: 'me', userId: c.get('member').userId, guildId: null };
		const done = accountOutcomeLine(c.req.query('done'));
		const outcome = outcomeLine(done === null ? null : t(done));
		const held = describeHeld(t, await showMember(deps, c.get('member').userId), localeOf(c), null);
		let stats: DashboardStats;
		try {
			stats = await load(c, target, request, null);
		} catch (error) {
			// The how-to is an answer, not a failure: /me without a link is a normal first visit.
			if (!isNoUserLink(error)) throw statsFailure(error, { title: t('web.myAccount') });
			const howTo = discordTextToHtml(renderMessage(t, describeExpectedError(error)!));
			const forms = html`${accountKeyForms(t, false, langQuery(c, '?'))}${myDataSection(t, langQuery(c, '?'), held)}`;
			return sendPage(c, t('web.myAccount'), html`${outcome}${messageBody(t('web.myAccount'), howTo)}${forms}`);
		}
		const options = {
			...statsPageOptions(c, '/me'),
			heading: t('web.myAccount'),
			exportPath: '/me/export.csv',
			rangeForm: true,
		};
		const myNotes = await listNotes(deps, meActor(c.get('member').userId), { scope: 'me', guildId: null });
		const notes = notesSection({
			t,
			action: `/me/notes${langQuery(c, '?')}`,
			scope: 'me',
			notes: myNotes.notes,
			today: stats.today,
		});
		const extra = html`${accountKeyForms(t, true, langQuery(c, '?'))}${notes}${myDataSection(t, langQuery(c, '?'), held)}`;
		return sendPage(c, t('web.myAccount'), html`${outcome}${statsBody(stats, { ...options, extra })}`);
	});

	pages.get('/servers/:guildId', pageSession, async (c) => {
		const guildId = c.req.param('guildId');
		const access = await checkServerAccess(deps, c.get('member'), guildId);
		if (access.kind === 'notFound') throw notFoundError();
		if (access.kind === 'refused') {
			throw new HttpError(
				403,
				{ key: 'web.refusedRole', vars: { role: access.roleName ?? access.roleId } },
				{ links: [{ href: '/', label: { key: 'web.back' } }] },
			);
		}
		const t = translatorOf(c);
		const request = readStatsRequest(c, access.settings, { today: utcDateOf(now()) });
		const target: StatsTarget = { scope: 'server', userId: c.get('member').userId, guildId };
		const stats = await load(c, target, request, access.guild.name).catch((error: unknown) => {
			throw statsFailure(error, { title: access.guild.name });
		});
		const path = `/servers/${guildId}`;
		const heading = t('web.serverAccount', { server: access.guild.name });
		const token = access.managesServer ? await publicToken(deps, guildId) : null;
		const extra = access.managesServer
			? html`${manageLink(t, `${path}/manage${langQuery(c, '?')}`)}
				${publicLinkForm(t, guildId, token ? `${site.origin}/p/${token}` : null)}`
			: undefined;
		const done = access.managesServer ? serverPageOutcomeLine(c.req.query('done')) : null;
		return sendPage(
			c,
			heading,
			html`${outcomeLine(done === null ? null : t(done))}${statsBody(stats, {
				...statsPageOptions(c, path),
				heading,
				exportPath: `${path}/export.csv`,
				rangeForm: true,
				extra,
			})}`,
		);
	});

	function load(c: Context<MemberEnv>, target: StatsTarget, request: StatsRequest, serverName: string | null) {
		const view = {
			days: request.days,
			metric: request.metric,
			range: request.range,
			locale: localeOf(c),
			serverName,
			now: now(),
		};
		return loadDashboardStats(deps, target, view, foldHistory);
	}

	return pages;
}

/** Where the days and metric links of a stats page point, keeping the language the member chose. */
export function statsPageOptions<E extends WebEnv>(c: Context<E>, path: string) {
	return { locale: localeOf(c), path, lang: askedLang(c) };
}
