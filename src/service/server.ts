import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { formatGeneratedAt, preciseNow } from './days.js';
import { ALLOWED_METHODS, rawErrorResponse, sendError, sendJson } from './http-responses.js';
import { MAX_KEY_LENGTH } from './keys.js';
import { RateLimiter } from './rate-limit.js';
import type { StatsStore } from './store.js';

export const STATS_PATH = '/api/v1/stats';
/** Requests per minute per key when the caller sets nothing. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
// Node answers 431 itself past this; a stats request needs a few hundred bytes of headers.
const MAX_HEADER_BYTES = 8 * 1024;

export interface StatsServerOptions {
	store: StatsStore;
	/** Default 127.0.0.1. */
	host?: string;
	/** Default 0: an ephemeral port (the CLI defaults to 8787). */
	port?: number;
	/** Answer every stats request with 503 feature_unavailable, as the real endpoint does before V2. */
	unreleased?: boolean;
	/** Per key; 0 turns the limit off. Default 60. */
	rateLimitPerMinute?: number;
	/** The stats clock; tests pin it. Default: the wall clock with microseconds. */
	now?: () => Date;
	/** Told about unexpected failures (answered 500); never given a key or a header. */
	onError?: (error: unknown) => void;
}

export interface RunningStatsServer {
	/** Base URL, e.g. `http://127.0.0.1:8787`; the endpoint is `${url}/api/v1/stats`. */
	url: string;
	close(): Promise<void>;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="stats"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="stats", error="invalid_token"';

/** Reads the path without query string or fragment; `/api/v1/stats/` counts as `/api/v1/stats`. */
function isStatsPath(url: string | undefined): boolean {
	const path = (url ?? '').split(/[?#]/, 1)[0];
	return path === STATS_PATH || path === `${STATS_PATH}/`;
}

/** Starts the HTTP server of GET /api/v1/stats and resolves once it listens. */
export async function startStatsServer(options: StatsServerOptions): Promise<RunningStatsServer> {
	const { store, unreleased = false } = options;
	const limiter = new RateLimiter(options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE);
	const pinnedNow = options.now;
	const clock = pinnedNow
		? () => {
				const date = pinnedNow();
				return { date, generatedAt: formatGeneratedAt(date) };
			}
		: () => {
				const { date, microsWithinMs } = preciseNow();
				return { date, generatedAt: formatGeneratedAt(date, microsWithinMs) };
			};

	function answerStats(req: IncomingMessage, res: ServerResponse, isHead: boolean): void {
		if (!isStatsPath(req.url))
			return sendError(res, isHead, 'not_found', `no resource here; the endpoint is GET ${STATS_PATH}`);
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			return sendError(res, isHead, 'method_not_allowed', `${STATS_PATH} answers ${ALLOWED_METHODS}`, {
				Allow: ALLOWED_METHODS,
			});
		}
		if (unreleased) {
			return sendError(res, isHead, 'feature_unavailable', 'account statistics are planned for the V2 update');
		}
		const header = req.headers.authorization;
		if (header === undefined || header.trim() === '') {
			return sendError(res, isHead, 'unauthorized', 'send Authorization: Bearer <API key>', {
				'WWW-Authenticate': CHALLENGE,
			});
		}
		const apiKey = BEARER.exec(header)?.[1];
		if (apiKey === undefined) {
			return sendError(res, isHead, 'unauthorized', 'the Authorization header must be "Bearer <API key>"', {
				'WWW-Authenticate': CHALLENGE,
			});
		}
		const account = apiKey.length <= MAX_KEY_LENGTH ? store.authenticate(apiKey) : null;
		if (!account) {
			return sendError(res, isHead, 'unauthorized', 'the API key is unknown or revoked', {
				'WWW-Authenticate': INVALID_TOKEN_CHALLENGE,
			});
		}
		const decision = limiter.take(account.id);
		if (!decision.allowed) {
			const seconds = String(decision.retryAfterSeconds);
			return sendError(res, isHead, 'rate_limited', `too many requests for this key; retry in ${seconds} s`, {
				'Retry-After': seconds,
			});
		}
		const { date, generatedAt } = clock();
		sendJson(res, isHead, 200, store.computeStatsFor(account, date, generatedAt));
	}

	const server = createServer({ keepAlive: true, maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
		req.resume(); // a body is never read, but it must be drained for keep-alive to go on
		const isHead = req.method === 'HEAD';
		try {
			answerStats(req, res, isHead);
		} catch (error) {
			options.onError?.(error);
			if (!res.headersSent) sendError(res, isHead, 'internal', 'the stats service failed; try again later');
			else res.destroy();
		}
	});
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		if (!socket.writable) return socket.destroy();
		const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
		socket.end(
			tooLarge
				? rawErrorResponse('request_header_fields_too_large', `request headers exceed ${MAX_HEADER_BYTES} bytes`)
				: rawErrorResponse('bad_request', 'the request is not valid HTTP/1.1'),
		);
	});

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	return {
		url: `http://${host}:${address.port}`,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
