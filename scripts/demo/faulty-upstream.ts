// A loopback proxy in front of the bundled stats service that the demo switches into each failure a
// member can meet, so the page shows every failure text next to the working flows.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type UpstreamMode = 'ok' | 'rejected' | 'unreleased' | 'busy' | 'down';

export interface FaultyUpstream {
	url: string;
	mode: UpstreamMode;
	close(): Promise<void>;
}

const ERRORS: Record<Exclude<UpstreamMode, 'ok' | 'down'>, [number, Record<string, string>, string, string]> = {
	rejected: [401, { 'www-authenticate': 'Bearer' }, 'unauthorized', 'Invalid API key.'],
	unreleased: [503, {}, 'feature_unavailable', 'Statistics arrive with the V2 update.'],
	busy: [429, { 'retry-after': '42' }, 'rate_limited', 'Too many requests.'],
};

export async function startFaultyUpstream(targetUrl: string): Promise<FaultyUpstream> {
	const target = new URL(targetUrl);
	const state: { mode: UpstreamMode } = { mode: 'ok' };
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		if (state.mode === 'down') {
			req.socket.destroy();
			return;
		}
		if (state.mode !== 'ok') {
			const [status, headers, code, message] = ERRORS[state.mode];
			res.writeHead(status, { 'content-type': 'application/json', ...headers });
			res.end(JSON.stringify({ error: { code, message } }));
			return;
		}
		const forward = httpRequest(
			{ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
			(upstream) => {
				res.writeHead(upstream.statusCode ?? 502, upstream.headers);
				upstream.pipe(res);
			},
		);
		forward.on('error', () => res.destroy());
		req.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get mode() {
			return state.mode;
		},
		set mode(mode: UpstreamMode) {
			state.mode = mode;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
