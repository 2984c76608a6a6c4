import { Hono, type Context } from 'hono';
import type { ServerSettings } from '../../settings/settings-record.js';
import { exportStats } from '../../stats/export-stats.js';
import { utcDateOf } from '../../history/utc-days.js';
import type { StatsTarget } from '../../stats/request.js';
import { HttpError, notFoundError } from '../http-error.js';
import { apiSession } from '../middleware.js';
import { checkServerAccess } from './server-access.js';
import { readStatsRequest, statsFailure } from './stats-request.js';
import { loadDashboardStats, statsJson, type FoldHistory } from './stats-view.js';
import type { WebDeps } from '../web-deps.js';
import { localeOf, type MemberEnv, type WebEnv } from '../web-env.js';

/** Whose figures a route reads, and the server's settings for its defaults (null: the member's own). */
interface ApiTarget {
	target: StatsTarget;
	settings: ServerSettings | null;
}

/**
 * The pages' figures for programs: JSON and `/export`'s CSV. Every refusal is JSON, never a redirect: 401 without
 * a session, 404, 403 naming the role.
 */
export function apiRoutes(deps: WebDeps, foldHistory: FoldHistory): Hono<WebEnv> {
	const api = new Hono<WebEnv>();
	const now = deps.now ?? Date.now;

	api.get('/api/me/stats', apiSession, async (c) => statsAnswer(c, ownTarget(c)));
	api.get('/api/servers/:guildId/stats', apiSession, async (c) =>
		statsAnswer(c, await serverTarget(c, c.req.param('guildId'))),
	);
	api.get('/me/export.csv', apiSession, async (c) => csvAnswer(c, ownTarget(c)));
	api.get('/servers/:guildId/export.csv', apiSession, async (c) =>
		csvAnswer(c, await serverTarget(c, c.req.param('guildId'))),
	);

	function ownTarget(c: Context<MemberEnv>): ApiTarget {
		return { target: { scope: 'me', userId: c.get('member').userId, guildId: null }, settings: null };
	}

	async function serverTarget(c: Context<MemberEnv>, guildId: string): Promise<ApiTarget> {
		const member = c.get('member');
		const access = await checkServerAccess(deps, member, guildId);
		if (access.kind === 'notFound') throw notFoundError({ json: true });
		if (access.kind === 'refused') {
			throw new HttpError(
				403,
				{ key: 'web.refusedRole', vars: { role: access.roleName ?? access.roleId } },
				{ json: true },
			);
		}
		return { target: { scope: 'server', userId: member.userId, guildId }, settings: access.settings };
	}

	async function statsAnswer(c: Context<MemberEnv>, { target, settings }: ApiTarget) {
		const at = now();
		const request = readStatsRequest(c, settings, { json: true, today: utcDateOf(at) });
		const view = { ...request, locale: localeOf(c), now: at };
		const stats = await loadDashboardStats(deps, target, view, foldHistory).catch((error: unknown) => {
			throw statsFailure(error, { json: true });
		});
		return c.json(statsJson(stats));
	}

	async function csvAnswer(c: Context<MemberEnv>, { target, settings }: ApiTarget) {
		const at = now();
		const request = readStatsRequest(c, settings, { json: true, today: utcDateOf(at) });
		const options = { days: request.days, range: request.range, now: at };
		const file = await exportStats(deps, target, options).catch((error: unknown) => {
			throw statsFailure(error, { json: true });
		});
		return c.body(file.csv, 200, {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="${file.fileName}"`,
		});
	}

	return api;
}
