import { listenOn } from '../listen.js';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { rawErrorResponse, sendError } from './http-responses.js';
import { RateLimiter } from './rate-limit.js';
import { answerStatsRequest, statsClock } from './stats-request.js';
import type { StatsStore } from './service-store.js';

export { STATS_PATH } from './stats-request.js';

/** Requests per minute per key when the caller sets nothing. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;
/** Failed authentications per client address per minute before 429, when the caller sets nothing. */
export const DEFAULT_AUTH_FAIL_LIMIT_PER_MINUTE = 60;
/** Time a client has to send its complete request headers before 408. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
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
	/** Failed authentications per client address per minute before 429; 0 turns it off. Default 60. */
	authFailLimitPerMinute?: number;
	/** Headers not complete within this get 408 and the connection closed. Default 10 s. */
	headersTimeoutMs?: number;
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

/** The raw answer for a socket whose request never reached the handler. */
function clientErrorResponse(error: NodeJS.ErrnoException): string {
	if (error.code === 'HPE_HEADER_OVERFLOW') {
		return rawErrorResponse('request_header_fields_too_large', `request headers exceed ${MAX_HEADER_BYTES} bytes`);
	}
	if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
		return rawErrorResponse('request_timeout', 'the request headers did not arrive in time');
	}
	return rawErrorResponse('bad_request', 'the request is not valid HTTP/1.1');
}

/** Starts the HTTP server of GET /api/v1/stats and resolves once it listens. */
export async function startStatsServer(options: StatsServerOptions): Promise<RunningStatsServer> {
	const deps = {
		store: options.store,
		perKey: new RateLimiter(options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE),
		failures: new AuthFailureLimiter(options.authFailLimitPerMinute ?? DEFAULT_AUTH_FAIL_LIMIT_PER_MINUTE),
		unreleased: options.unreleased ?? false,
		clock: statsClock(options.now),
	};
	const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
	const server = createServer(
		{
			keepAlive: true,
			maxHeaderSize: MAX_HEADER_BYTES,
			headersTimeout,
			requestTimeout: Math.max(headersTimeout, 30_000),
			// Node looks for expired headers only this often (30 s by default), which would stretch 10 s to 40.
			connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
		},
		(req, res) => {
			req.resume(); // a body is never read, but it must be drained for keep-alive to go on
			try {
				answerStatsRequest(req, res, deps);
			} catch (error) {
				options.onError?.(error);
				if (!res.headersSent)
					sendError(res, req.method === 'HEAD', 'internal', 'the stats service failed; try again later');
				else res.destroy();
			}
		},
	);
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
		if (!socket.writable) return socket.destroy();
		socket.end(clientErrorResponse(error));
	});

	const origin = await listenOn(server, options.port ?? 0, options.host ?? '127.0.0.1');
	return {
		url: origin,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
