import { request } from 'undici';
import { createChartRenderer } from '../../render/create-chart-renderer.js';
import { buildChartConfig, type ChartInput } from '../../render/chart.js';
import { DEFAULT_USER_AGENT } from '../../stats-api/http.js';
import { errorText, fail, networkProblem, ok, warn, type Check } from './check.js';
import type { DoctorContext } from './context.js';

/** Past this, cached figures and "today" boundaries drift visibly. */
const MAX_CLOCK_SKEW_MS = 60_000;

/** The stats endpoint's origin without any credentials a URL may carry. */
function hostOf(baseUrl: string): string {
	try {
		return new URL(baseUrl).host;
	} catch {
		return 'STATS_API_BASE_URL';
	}
}

export const statsApiCheck: Check<DoctorContext> = {
	name: 'stats-api',
	deadlineMs: 10_000,
	onDeadline: 'check STATS_API_BASE_URL and that the stats service runs',
	async run(ctx) {
		const host = hostOf(ctx.config.statsApiBaseUrl);
		const started = performance.now();
		let status: number;
		let date: string | undefined;
		try {
			// No Authorization header on purpose: a conforming endpoint refuses it with 401, and no key is spent.
			const answer = await request(`${ctx.config.statsApiBaseUrl}/api/v1/stats`, {
				method: 'GET',
				headers: { accept: 'application/json', 'user-agent': DEFAULT_USER_AGENT },
				signal: AbortSignal.timeout(Math.max(ctx.config.statsApiTimeoutMs, 3000)),
			});
			await answer.body.dump();
			status = answer.statusCode;
			const header = answer.headers.date;
			date = Array.isArray(header) ? header[0] : header;
		} catch (error) {
			return fail(
				`${host} does not answer (${networkProblem(error)}): start the stats service, or set STATS_API_BASE_URL to its base URL`,
			);
		}
		const ms = Math.round(performance.now() - started);
		if (status !== 401) {
			return fail(
				`${host} answered a request without a key with ${status}, not 401: STATS_API_BASE_URL must be the stats service's base URL (the bot adds /api/v1/stats)`,
			);
		}
		const serverTime = date === undefined ? Number.NaN : Date.parse(date);
		if (Number.isNaN(serverTime))
			return ok(`${host} answers (401 without a key) in ${ms} ms; no Date header to compare clocks`);
		// The Date header has whole seconds; half the round trip is when the server most likely wrote it.
		const skew = Math.round((serverTime - (Date.now() - ms / 2)) / 1000);
		const answered = `${host} answers (401 without a key) in ${ms} ms`;
		if (Math.abs(skew) * 1000 > MAX_CLOCK_SKEW_MS) {
			return warn(`${answered}; its clock and this machine's differ by ${skew} s: synchronise the clocks (NTP)`);
		}
		return ok(`${answered}; clock skew ${skew} s`);
	},
};

/** A week of made-up figures: enough for bars, the average line and today's partial bar. */
function sampleChart(): ChartInput {
	const day = 86_400_000;
	const points = Array.from({ length: 7 }, (_, i) => ({
		date: new Date(Date.UTC(2026, 0, 1) + i * day).toISOString().slice(0, 10),
		value: 10 + i,
	}));
	return {
		metric: 'sends',
		points,
		averageSeed: [],
		locale: 'en-US',
		labels: {
			title: 'doctor',
			subtitle: '',
			yAxis: 'sends',
			series: 'sends',
			average: 'average',
			partialToday: 'today',
		},
	};
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

export const chartCheck: Check<DoctorContext> = {
	name: 'chart',
	deadlineMs: 15_000,
	onDeadline: 'the renderer is too slow: check QUICKCHART_URL, or set CHART_RENDERER=local',
	async run(ctx) {
		const name = ctx.config.chartRenderer;
		const renderer = createChartRenderer(name, { quickchartUrl: ctx.config.quickchartUrl, threads: 1 });
		const fix =
			name === 'quickchart'
				? 'check QUICKCHART_URL and the network to it, or set CHART_RENDERER=local (or none)'
				: 'reinstall the dependencies (npm ci) so @napi-rs/canvas loads, or set CHART_RENDERER=quickchart (or none)';
		const started = performance.now();
		try {
			const built = buildChartConfig(sampleChart());
			const png = await renderer.render(built.config, { width: 400, height: 200 }, { background: built.background });
			const ms = Math.round(performance.now() - started);
			if (!png || !png.subarray(0, 4).equals(PNG_SIGNATURE))
				return fail(`CHART_RENDERER=${name} returned no PNG: ${fix}`);
			return ok(`CHART_RENDERER=${name} drew a ${png.length}-byte chart in ${ms} ms`);
		} catch (error) {
			return fail(`CHART_RENDERER=${name} could not draw a chart (${errorText(error)}): ${fix}`);
		} finally {
			await renderer.close().catch(() => undefined);
		}
	},
};

/**
 * The dashboard's public origin: browsers keep the session cookie `Secure` only over https, and Discord sends
 * members back to exactly the redirect URI registered in the Developer Portal.
 */
export const webCheck: Check<DoctorContext> = {
	name: 'web',
	deadlineMs: 1000,
	onDeadline: 'check WEB_PUBLIC_URL',
	async run(ctx) {
		const publicUrl = ctx.config.webPublicUrl ?? '';
		const redirect = `${publicUrl}/auth/callback`;
		const register = `register ${redirect} as a redirect URI under OAuth2 in the Discord Developer Portal`;
		if (new URL(publicUrl).protocol !== 'https:') {
			return warn(
				`WEB_PUBLIC_URL is not https, so the session cookie is not Secure: serve the dashboard behind an https reverse proxy and set WEB_PUBLIC_URL to its https origin; ${register}`,
			);
		}
		return ok(`${publicUrl} over https; ${register}`);
	},
};
