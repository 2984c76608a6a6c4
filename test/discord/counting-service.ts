// The bundled stats service on a temporary SQLite file, behind a proxy that counts the requests
// per API key (how many upstream calls a burst of commands really made) and notes each User-Agent.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { openStatsStore, seedDemoAccount, startStatsServer, type StatsStore } from '../../src/service/index.js';
import { listenOnLoopback } from '../stats-api/fault-server.js';

export interface CountingService {
	url: string;
	store: StatsStore;
	createAccount(name: string): string;
	requestsFor(apiKey: string): number;
	/** Every distinct User-Agent the requests carried. */
	userAgents(): string[];
	close(): Promise<void>;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export async function startCountingService(dir: string): Promise<CountingService> {
	const store = openStatsStore(join(dir, 'service.sqlite'));
	const service = await startStatsServer({ store, port: 0, rateLimitPerMinute: 0 });
	const counts = new Map<string, number>();
	const userAgents = new Set<string>();
	const proxy = createServer((req, res) => {
		const auth = String(req.headers.authorization ?? '');
		const key = digest(auth.replace(/^Bearer\s+/i, ''));
		counts.set(key, (counts.get(key) ?? 0) + 1);
		userAgents.add(String(req.headers['user-agent'] ?? ''));
		const target = new URL(req.url ?? '/', service.url);
		fetch(target, { method: req.method, headers: { authorization: auth, accept: 'application/json' } }).then(
			async (upstream) => {
				const headers: Record<string, string> = {};
				upstream.headers.forEach((value, name) => {
					if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding')
						headers[name] = value;
				});
				res.writeHead(upstream.status, headers).end(Buffer.from(await upstream.arrayBuffer()));
			},
			() => res.writeHead(502).end(),
		);
	});
	const listening = await listenOnLoopback(proxy);
	return {
		url: listening.url,
		store,
		createAccount: (name) => seedDemoAccount(store, { name, days: 120 }).apiKey,
		requestsFor: (apiKey) => counts.get(digest(apiKey)) ?? 0,
		userAgents: () => [...userAgents],
		close: async () => {
			await listening.close();
			await service.close();
			store.close();
		},
	};
}
