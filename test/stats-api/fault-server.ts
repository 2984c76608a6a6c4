// A loopback HTTP server that misbehaves on request: the bearer key names the scenario, so one
// server serves every test at once. Each scenario is a plain handler over Node's own http.
import { createServer, type Server } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

export function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		data: {
			sends: {
				today: 3,
				weekly: 20,
				monthly: 70,
				all_time: 900,
				failed_all_time: 4,
				daily_breakdown: [
					{ date: '2026-11-19', sends: 1 },
					{ date: '2026-11-20', sends: 2 },
					{ date: '2026-11-21', sends: 3 },
				],
			},
			joins: { today: 1, weekly: 5, monthly: 9, all_time: 80 },
			meta: { generated_at: '2026-11-21T09:30:12.123456+00:00', user: 'acme' },
			...overrides,
		},
	};
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'content-type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

const errorBody = (code: string) => ({ error: { code, message: code } });

export const SCENARIOS: Record<string, Handler> = {
	ok: (_req, res) => json(res, 200, validBody()),
	'slow-headers': () => {
		// Never answers; the client's budget has to end it.
	},
	'slow-body': (_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.write('{"data":');
		const timer = setInterval(() => res.write(' '), 50);
		res.on('close', () => clearInterval(timer));
	},
	'401': (_req, res) => json(res, 401, errorBody('unauthorized'), { 'www-authenticate': 'Bearer' }),
	'403': (_req, res) => json(res, 403, errorBody('forbidden')),
	'404': (_req, res) => json(res, 404, errorBody('not_found')),
	'501': (_req, res) => json(res, 501, errorBody('not_implemented')),
	'429': (_req, res) => json(res, 429, errorBody('rate_limited'), { 'retry-after': '17' }),
	'429-date': (_req, res) =>
		json(res, 429, errorBody('rate_limited'), { 'retry-after': new Date(Date.now() + 30_000).toUTCString() }),
	'500': (_req, res) => json(res, 500, errorBody('internal')),
	'502-then-200': (_req, res, attempt) => (attempt === 1 ? json(res, 502, 'bad gateway') : json(res, 200, validBody())),
	'503-always': (_req, res) => json(res, 503, errorBody('overloaded')),
	'503-feature': (_req, res) => json(res, 503, errorBody('feature_unavailable')),
	reset: (req) => (req.socket as Socket).resetAndDestroy(),
	'not-json': (_req, res) => {
		res.writeHead(200, { 'content-type': 'text/html' });
		res.end('<html>secret-looking body 12345</html>');
	},
	'wrong-types': (_req, res) =>
		json(res, 200, validBody({ joins: { today: '1', weekly: 5, monthly: 9, all_time: 80 } })),
	nulls: (_req, res) =>
		json(res, 200, {
			data: {
				sends: { today: null, weekly: 2, daily_breakdown: null },
				joins: null,
				meta: { generated_at: null },
			},
		}),
	negative: (_req, res) => json(res, 200, validBody({ joins: { today: -1, weekly: 5, monthly: 9, all_time: 80 } })),
	fraction: (_req, res) => json(res, 200, validBody({ joins: { today: 1.5, weekly: 5, monthly: 9, all_time: 80 } })),
	'bad-date': (_req, res) => {
		const body = validBody();
		(body.data as { sends: { daily_breakdown: unknown[] } }).sends.daily_breakdown = [{ date: '2026-02-30', sends: 1 }];
		json(res, 200, body);
	},
	'messy-days': (_req, res) => {
		const body = validBody({ surprise: { nested: true } });
		(body.data as { sends: { daily_breakdown: unknown[] } }).sends.daily_breakdown = [
			{ date: '2026-11-21', sends: 3, extra: 'x' },
			{ date: '2026-11-17', sends: 1 },
			{ date: '2026-11-21', sends: 4 },
			{ date: '2026-11-19', sends: 2 },
		];
		json(res, 200, body);
	},
	huge: (_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		const chunk = Buffer.alloc(64 * 1024, 0x20);
		let sent = 0;
		const pump = (): void => {
			while (sent < 5 * 1024 * 1024) {
				sent += chunk.length;
				if (!res.write(chunk)) {
					res.once('drain', pump);
					return;
				}
			}
			res.end();
		};
		res.on('error', () => undefined);
		pump();
	},
};

export interface FaultServer {
	url: string;
	/** Requests seen per scenario name. */
	hits: Map<string, number>;
	close(): Promise<void>;
}

/** Listens on a free loopback port; `close` also ends open connections, hung ones included. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export async function startFaultServer(): Promise<FaultServer> {
	const hits = new Map<string, number>();
	const server = createServer((req, res) => {
		const scenario = (req.headers.authorization ?? '').replace(/^Bearer scenario-/, '');
		const attempt = (hits.get(scenario) ?? 0) + 1;
		hits.set(scenario, attempt);
		const handler = SCENARIOS[scenario];
		if (!handler || req.url !== '/api/v1/stats') return json(res, 400, errorBody('unknown_scenario'));
		handler(req, res, attempt);
	});
	return { ...(await listenOnLoopback(server)), hits };
}
