// The naive stats endpoint, for the service bench only: the same request and the same JSON body
// as the real server, but every answer aggregates the raw events table instead of reading roll-ups.
// It lives here so the product server carries no bench-only path.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendError, sendJson } from '../src/service/http-responses.js';
import { STATS_PATH, type RunningStatsServer, type StatsStore } from '../src/service/index.js';

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** Serves GET /api/v1/stats from `store.computeStatsFromRawEvents`; only what the bench sends is handled. */
export async function startRawStatsServer(store: StatsStore): Promise<RunningStatsServer> {
	const server = createServer({ keepAlive: true }, (req, res) => {
		req.resume();
		const isHead = req.method === 'HEAD';
		if (req.url?.split(/[?#]/, 1)[0] !== STATS_PATH)
			return sendError(res, isHead, 'not_found', `the endpoint is GET ${STATS_PATH}`);
		// The key check is the same indexed lookup the real server does, so only the body's source differs.
		const apiKey = BEARER.exec(req.headers.authorization ?? '')?.[1];
		const account = apiKey === undefined ? null : store.authenticate(apiKey);
		if (!account) return sendError(res, isHead, 'unauthorized', 'the API key is unknown or revoked');
		sendJson(res, isHead, 200, store.computeStatsFromRawEvents(account.name, new Date()));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
