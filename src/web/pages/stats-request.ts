import type { Context } from 'hono';
import { describeExpectedError } from '../../error-messages.js';
import { UserFacingError } from '../../errors.js';
import type { ServerSettings } from '../../settings/settings-record.js';
import { completeStatsRequest, parseStatsOptions, type StatsRequest } from '../../stats/request.js';
import { HttpError } from '../http-error.js';
import type { WebEnv } from '../web-env.js';

/**
 * `days` and `metric` as `/stats` takes them, with the server's defaults; anything else is a 400 (a page, or JSON
 * on the JSON and CSV routes). An empty field (a GET form left alone) counts as absent. Given the bot's UTC date
 * (`today`), `from` and `to` are read too, checked as `/stats` checks them; a route without it ignores them.
 */
export function readStatsRequest<E extends WebEnv>(
	c: Context<E>,
	settings: Pick<ServerSettings, 'defaultDays' | 'defaultMetric'> | null,
	options: { json?: boolean; today?: string } = {},
): StatsRequest {
	const days = c.req.query('days');
	const metric = c.req.query('metric');
	const range = options.today === undefined ? {} : { from: c.req.query('from'), to: c.req.query('to') };
	try {
		const parsed = parseStatsOptions({
			scope: 'me',
			days: days === undefined || days === '' ? null : /^\d{1,3}$/.test(days) ? Number(days) : -1,
			metric: metric === undefined || metric === '' ? null : metric,
			...range,
			today: options.today,
		});
		return completeStatsRequest(parsed, settings ?? undefined);
	} catch (error) {
		if (!(error instanceof UserFacingError)) throw error;
		throw new HttpError(400, { key: error.key, vars: error.vars }, { json: options.json });
	}
}

/** The member's own account without a link: the how-to is an answer, not a failure. */
export function isNoUserLink(error: unknown): boolean {
	return error instanceof UserFacingError && error.key === 'stats.noUserLink';
}

/**
 * Figures that could not be read (no link, a refused key, the service down) as the member reads it: 404
 * `not_linked` for their own missing link on the JSON and CSV routes, else 503. A bug passes through.
 */
export function statsFailure(error: unknown, options: { json?: boolean; title?: string } = {}): unknown {
	const message = describeExpectedError(error);
	if (message === null) return error;
	if (options.json && isNoUserLink(error)) return new HttpError(404, message, { json: true, code: 'not_linked' });
	return new HttpError(503, message, { json: options.json, title: options.title });
}
