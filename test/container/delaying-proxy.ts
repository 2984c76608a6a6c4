// The stats service behind a pause the test sets: a `/stats` call can be held in flight while the bot is stopped.
import { createServer, request } from 'node:http';
import { listenOn } from '../../src/listen.js';

export interface DelayingProxy {
	url: string;
	/** Each request waits this long before it is passed on. */
	delayMs: number;
	/** Requests received and not yet answered. */
	readonly pending: number;
	close(): Promise<void>;
}

export async function startDelayingProxy(target: string): Promise<DelayingProxy> {
	let pending = 0;
	const state = { delayMs: 0 };
	const server = createServer((req, res) => {
		pending += 1;
		res.on('close', () => (pending -= 1));
		setTimeout(() => {
			const upstream = request(
				new URL(req.url ?? '/', target),
				{ method: req.method, headers: req.headers },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			req.pipe(upstream);
		}, state.delayMs);
	});
	const url = await listenOn(server, 0, '127.0.0.1');
	return {
		url,
		get delayMs() {
			return state.delayMs;
		},
		set delayMs(ms: number) {
			state.delayMs = ms;
		},
		get pending() {
			return pending;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
