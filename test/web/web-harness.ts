// The dashboard on loopback parts: the bundled stats service on a temporary SQLite file, the Discord
// stand-in (its OAuth2 and REST), the bot's real services on a store, and the hono app called without a
// socket (`app.request`). A cookie jar plays the browser.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Hono } from 'hono';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { openBotServices, type BotServices } from '../../src/app/services.js';
import { webDepsOf } from '../../src/app/start-web.js';
import { loadConfig } from '../../src/config.js';
import { createBotRest } from '../../src/discord/bot-rest.js';
import { createLogger } from '../../src/logger.js';
import { openStatsStore, seedDemoAccount, startStatsServer, type StatsStore } from '../../src/service/index.js';
import { createWebApp, type WebDeps } from '../../src/web/app.js';
import { createBotGuilds } from '../../src/web/bot-guilds.js';
import { createWebStore } from '../../src/web/auth/sessions.js';

export const PUBLIC_URL = 'http://dashboard.test';
export const MANAGE_GUILD = (1n << 5n).toString();

export interface WebHarness {
	sandbox: DiscordSandbox;
	services: BotServices;
	deps: WebDeps;
	app: Hono;
	serviceStore: StatsStore;
	/** The service's account names (`[A-Za-z0-9_.-]`) as the endpoint should report them instead (any text). */
	renames: Map<string, string>;
	/** Moves the dashboard's clock (sessions, login states, the 60 s role cache). */
	advance(ms: number): void;
	logs: string[];
	/** The temporary folder holding the bot's SQLite store (`bot.sqlite*`), for tests that read its bytes. */
	dir: string;
	close(): Promise<void>;
}

export async function startWebHarness(options: { storeUrl?: string; namespacePrefix?: string } = {}) {
	const dir = mkdtempSync(join(tmpdir(), 'adstats-web-'));
	const serviceStore = openStatsStore(join(dir, 'service.sqlite'));
	const service = await startStatsServer({ store: serviceStore, port: 0, rateLimitPerMinute: 0 });
	const renames = new Map<string, string>();
	const upstream = await startRenamingUpstream(service.url, renames);
	const sandbox = await startDiscordSandbox({ guildCount: 2, heartbeatIntervalMs: 5000 });
	const config = loadConfig(
		{
			DISCORD_TOKEN: sandbox.token,
			DISCORD_APPLICATION_ID: sandbox.applicationId,
			DISCORD_API_URL: sandbox.apiUrl,
			STATS_API_BASE_URL: upstream.url,
			STORE_URL: options.storeUrl ?? `sqlite://${join(dir, 'bot.sqlite')}`,
			LINK_SECRET: randomBytes(32).toString('hex'),
			CHART_RENDERER: 'none',
			HISTORY_SAMPLING: 'off',
			LOG_LEVEL: 'debug',
			WEB_PORT: '0',
			WEB_PUBLIC_URL: PUBLIC_URL,
			DISCORD_CLIENT_SECRET: sandbox.clientSecret,
			DISCORD_OAUTH_URL: sandbox.oauthAuthorizeUrl,
		},
		'web',
	);
	const logs: string[] = [];
	const log = createLogger(
		'debug',
		new Writable({
			write(chunk: Buffer, _encoding, done) {
				logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
				done();
			},
		}),
	);
	const services = await openBotServices(config, log);
	let offset = 0;
	const clock = () => Date.now() + offset;
	const deps: WebDeps = {
		...webDepsOf(services.ctx, log),
		web: createWebStore(services.ctx.stores.web, { now: clock }),
		botGuilds: createBotGuilds(createBotRest(config), { now: clock }),
		now: clock,
	};
	const app = createWebApp(deps) as unknown as Hono;
	const harness: WebHarness = {
		sandbox,
		services,
		deps,
		app,
		serviceStore,
		renames,
		advance: (ms) => {
			offset += ms;
		},
		logs,
		dir,
		close: async () => {
			await services.close();
			await sandbox.close();
			await upstream.close();
			await service.close();
			serviceStore.close();
			rmSync(dir, { recursive: true, force: true });
		},
	};
	return harness;
}

/** An account in the bundled service with 120 days of activity; returns its key. */
export function createAccount(harness: WebHarness, name: string): string {
	return seedDemoAccount(harness.serviceStore, { name, days: 120 }).apiKey;
}

/** A browser's cookies for one site, enough for the dashboard's two. */
export class Browser {
	readonly cookies = new Map<string, string>();

	constructor(
		private readonly app: Pick<Hono, 'request'>,
		private readonly origin = PUBLIC_URL,
	) {}

	async request(path: string, init: RequestInit = {}): Promise<Response> {
		const headers = new Headers(init.headers);
		if (this.cookies.size > 0) {
			headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
		}
		const response = await this.app.request(`${this.origin}${path}`, { ...init, headers });
		for (const line of response.headers.getSetCookie()) {
			const [pair = ''] = line.split(';');
			const at = pair.indexOf('=');
			const name = pair.slice(0, at);
			const value = pair.slice(at + 1);
			if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
		return response;
	}

	/** A form POST from our own pages (Origin set as a browser sets it). */
	post(path: string, fields: Record<string, string> = {}, origin: string | null = this.origin): Promise<Response> {
		const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
		if (origin !== null) headers.origin = origin;
		return this.request(path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
	}
}

/** Plays the whole login as `userId` through the stand-in's authorization page; answers the callback's response. */
export async function logIn(
	harness: WebHarness,
	browser: Browser,
	userId: string,
	options: { next?: string; locale?: string; username?: string } = {},
): Promise<Response> {
	const login = await browser.request(`/login${options.next ? `?next=${encodeURIComponent(options.next)}` : ''}`);
	assert.equal(login.status, 302);
	harness.sandbox.setOAuthUser(userId, {
		username: options.username ?? `user${userId.slice(-3)}`,
		locale: options.locale ?? 'en-US',
	});
	const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
	assert.equal(authorize.status, 302);
	const back = new URL(authorize.headers.get('location')!);
	assert.equal(back.origin, PUBLIC_URL);
	return browser.request(back.pathname + back.search);
}

/**
 * The bundled service behind a proxy that renames accounts in `meta.user`: the service only takes plain names,
 * and the escaping tests need one holding `<script>`.
 */
async function startRenamingUpstream(serviceUrl: string, renames: Map<string, string>) {
	const server = createServer((req, res) => {
		void (async () => {
			const answer = await fetch(`${serviceUrl}${req.url ?? '/'}`, {
				headers: { authorization: req.headers.authorization ?? '' },
			});
			let text = await answer.text();
			if (answer.status === 200) {
				const body = JSON.parse(text) as { data?: { meta?: { user?: string } } };
				const meta = body.data?.meta;
				const renamed = meta?.user === undefined ? undefined : renames.get(meta.user);
				if (renamed !== undefined && meta) meta.user = renamed;
				text = JSON.stringify(body);
			}
			res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
			res.end(text);
		})().catch(() => res.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
