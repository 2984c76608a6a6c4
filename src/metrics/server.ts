import { listenOn } from '../listen.js';
import { createServer, type ServerResponse } from 'node:http';

import type { Registry } from 'prom-client';
import type { HealthReport } from './health.js';

/** A /healthz answer waits at most this for `health()`; past it the bot is reported not ready. */
export const HEALTH_DEADLINE_MS = 2000;
/** close() resolves within this whatever the open connections and pending answers do. */
export const CLOSE_DEADLINE_MS = 2000;
const ALLOWED_METHODS = 'GET, HEAD';

export interface MetricsServerOptions {
	/** Default 127.0.0.1: the endpoints are for the host's scraper, not the internet. */
	host?: string;
	/** 0 picks a free port (see `url`). */
	port: number;
	/** The process's metrics, or a function giving a registry per scrape (the aggregate of a sharded bot). */
	metrics: { registry: Registry } | (() => Promise<Registry>);
	/** Readiness: gateway or interactions endpoint, store. */
	health: () => Promise<HealthReport>;
	/** Told when collecting metrics or running health() throws; the scraper gets 500 or 503. */
	onError?: (error: unknown) => void;
}

export interface RunningMetricsServer {
	/** e.g. `http://127.0.0.1:9464`. */
	url: string;
	close(): Promise<void>;
}

function send(
	res: ServerResponse,
	isHead: boolean,
	status: number,
	contentType: string,
	body: string,
	headers: Record<string, string> = {},
): void {
	res.writeHead(status, {
		'Content-Type': contentType,
		'Content-Length': String(Buffer.byteLength(body)),
		'Cache-Control': 'no-store',
		...headers,
	});
	res.end(isHead ? undefined : body);
}

function sendJson(res: ServerResponse, isHead: boolean, status: number, body: unknown): void {
	send(res, isHead, status, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`);
}

function sendText(res: ServerResponse, isHead: boolean, status: number, body: string, headers = {}): void {
	send(res, isHead, status, 'text/plain; charset=utf-8', `${body}\n`, headers);
}

class DeadlineError extends Error {
	override name = 'DeadlineError';
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new DeadlineError(`no answer within ${ms} ms`)), ms);
	});
	try {
		return await Promise.race([work, deadline]);
	} finally {
		clearTimeout(timer);
	}
}

function describeFailures(report: HealthReport): string {
	const failed = report.checks.filter((check) => !check.ok);
	if (failed.length === 0) return 'not ready';
	return failed.map((check) => (check.detail ? `${check.name}: ${check.detail}` : check.name)).join('; ');
}

/** Serves GET /metrics (Prometheus text), /healthz (readiness) and /livez (liveness); resolves once listening. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<RunningMetricsServer> {
	const { metrics, health, onError } = options;
	const readRegistry = typeof metrics === 'function' ? metrics : async () => metrics.registry;

	async function answerMetrics(res: ServerResponse, isHead: boolean): Promise<void> {
		try {
			const registry = await readRegistry();
			send(res, isHead, 200, registry.contentType, await registry.metrics());
		} catch (error) {
			onError?.(error);
			sendText(res, isHead, 500, 'collecting metrics failed');
		}
	}

	async function answerHealth(res: ServerResponse, isHead: boolean): Promise<void> {
		let report: HealthReport;
		try {
			report = await withDeadline(health(), HEALTH_DEADLINE_MS);
		} catch (error) {
			onError?.(error);
			// Only the kind of a thrown error: its message may quote a connection string.
			const reason =
				error instanceof DeadlineError
					? `health check gave ${error.message}`
					: `health check failed (${error instanceof Error ? error.name : typeof error})`;
			return sendJson(res, isHead, 503, { status: 'unavailable', reason, checks: [] });
		}
		if (report.ready) return sendJson(res, isHead, 200, { status: 'ok', checks: report.checks });
		sendJson(res, isHead, 503, { status: 'unavailable', reason: describeFailures(report), checks: report.checks });
	}

	const server = createServer((req, res) => {
		req.resume();
		const isHead = req.method === 'HEAD';
		const path = (req.url ?? '').split(/[?#]/, 1)[0];
		if (path !== '/metrics' && path !== '/healthz' && path !== '/livez') {
			return sendText(res, isHead, 404, 'not found: the endpoints are /metrics, /healthz and /livez');
		}
		if (req.method !== 'GET' && !isHead) {
			return sendText(res, false, 405, `${path} answers ${ALLOWED_METHODS}`, { Allow: ALLOWED_METHODS });
		}
		// Liveness answers without looking at Discord or the store, so an outage of either never restarts the bot.
		if (path === '/livez') return sendJson(res, isHead, 200, { status: 'alive' });
		void (path === '/metrics' ? answerMetrics(res, isHead) : answerHealth(res, isHead));
	});
	server.headersTimeout = 10_000;
	server.requestTimeout = 15_000;

	const origin = await listenOn(server, options.port, options.host ?? '127.0.0.1');
	return {
		url: origin,
		async close() {
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await withDeadline(closed, CLOSE_DEADLINE_MS).catch(() => undefined);
		},
	};
}
