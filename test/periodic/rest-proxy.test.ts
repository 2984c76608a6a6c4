// Two bot processes on one Redis reach the Discord stand-in only through @discordjs/proxy (DISCORD_API_URL
// pointed at it), as docs/scale.md shows for hosts that run a REST proxy: the store's budget still holds the
// seconds at the stand-in, and the stat channels are renamed once per round across both processes.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { proxyRequests } from '@discordjs/proxy';
// The ESM build of @discordjs/rest, as @discordjs/proxy imports it: discord.js's CommonJS copy has classes of its
// own, and the proxy's `instanceof RateLimitError` would not know its errors (it then answers 200 for a call it
// never sent).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the proxy's own copy of REST, see above
import { REST } from '@discordjs/rest';
import { createClient } from '@redis/client';
import { startDiscordSandbox } from '../../sandbox/index.js';
import type { JobsChildMessage, JobsChildOptions } from '../../bench/jobs-child.js';
import { spreadOffset } from '../../src/core/periodic-runner.js';
import { redisBackend, REDIS_URL } from '../links/backends.js';
import { seedStatChannels } from '../watch/stat-channel-records.js';

const CHILD = new URL('../../bench/jobs-child.ts', import.meta.url).pathname;
const SERVERS = 200;
const CHANNELS_PER_SERVER = 2;
// The default budget: at start every channel is due at once, so the 400 renames bunch past it for ~10 s. (At
// 10 a second the proxy's extra hop can carry one second's grants into the next, past the 10 % margin.)
const PER_SECOND = 40;
// One-minute rounds so a ~65 s run sees a whole round and the start of the next.
const EVERY_MINUTES = 1;
const RUN_MS = 65_000;
const prefix = `rp${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

async function removeRun(): Promise<void> {
	const client = createClient({ url: REDIS_URL });
	await client.connect();
	for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
		if (keys.length > 0) await client.del(keys);
	}
	client.destroy();
}

/**
 * @discordjs/proxy on loopback in front of `upstreamApi`, set up as its container is: no token of its own (it
 * forwards the caller's Authorization header), and a 429 handed back to the caller rather than retried. Records
 * what it answered, once it has answered: a request still in flight, or one refused (a 429 from the stand-in, or
 * from the proxy's own view of a route's bucket without reaching the stand-in), renamed nothing there.
 */
async function startRestProxy(upstreamApi: string) {
	const handle = proxyRequests(new REST({ api: upstreamApi, rejectOnRateLimit: () => true, retries: 0 }));
	const answered: { method: string; path: string; status: number; failedUpstream: string | null }[] = [];
	let inFlight = 0;
	const server = createServer((req, res) => {
		const method = req.method ?? '';
		const path = new URL(req.url ?? '/', 'http://proxy').pathname;
		const entry = { method, path, status: 0, failedUpstream: null as string | null };
		inFlight += 1;
		res.once('close', () => {
			inFlight -= 1;
			entry.status = res.writableFinished ? res.statusCode : 0;
			answered.push(entry);
		});
		// proxyRequests ends the response in a `finally` before it rethrows an error it does not know (a socket
		// error towards Discord, say): the caller then gets a 200 with no body for a request that never arrived.
		Promise.resolve(handle(req, res)).catch((error: unknown) => {
			entry.failedUpstream = error instanceof Error ? error.name : typeof error;
			if (!res.headersSent) res.writeHead(502);
			res.end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		// What a host sets DISCORD_API_URL to: @discordjs/rest appends /v10, the proxy strips /api/v10.
		apiUrl: `http://127.0.0.1:${port}/api`,
		answered,
		/** Resolves once no request is in flight through the proxy; throws after `timeoutMs`. */
		drained: async (timeoutMs: number) => {
			const deadline = Date.now() + timeoutMs;
			while (inFlight > 0) {
				if (Date.now() > deadline) throw new Error(`${inFlight} requests still in flight through the proxy`);
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

const redis = await redisBackend();

if (redis.unavailable) {
	if (process.env.CI === 'true') test('redis is reachable in CI', () => assert.fail(redis.unavailable ?? ''));
	else test('redis skipped', (t) => t.skip(redis.unavailable ?? ''));
} else {
	test(
		'two bot processes through @discordjs/proxy: renamed once per round, no global 429, the budget holds at the stand-in',
		{ timeout: RUN_MS + 180_000 },
		async (t) => {
			const sandbox = await startDiscordSandbox({
				guildCount: SERVERS,
				channelsPerGuild: CHANNELS_PER_SERVER,
				validateSchema: false,
			});
			const proxy = await startRestProxy(sandbox.apiUrl);
			const channels = sandbox.guildIds.flatMap((guildId) =>
				sandbox
					.guildChannelIds(guildId)
					.slice(0, CHANNELS_PER_SERVER)
					.map((channelId) => ({ guildId, channelId })),
			);
			const children: ChildProcess[] = [];
			try {
				await seedStatChannels(REDIS_URL, prefix, channels);
				const renames: { channelId: string; at: number }[] = [];
				const done: Extract<JobsChildMessage, { done: unknown }>['done'][] = [];
				const options: JobsChildOptions = {
					storeUrl: REDIS_URL,
					prefix,
					apiUrl: proxy.apiUrl,
					token: sandbox.token,
					perSecond: PER_SECOND,
					processes: 2,
					everyMinutes: EVERY_MINUTES,
				};
				for (let index = 0; index < 2; index += 1) {
					const child = fork(CHILD, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'] });
					children.push(child);
					child.on('message', (message: JobsChildMessage) => {
						if ('renamed' in message) renames.push(message.renamed);
						if ('done' in message) done.push(message.done);
					});
					await once(child, 'message');
				}
				const startedAt = Date.now();
				for (const child of children) child.send({ start: true });
				await new Promise((resolve) => setTimeout(resolve, RUN_MS));
				for (const child of children) child.send({ stop: true });
				const deadline = Date.now() + 60_000;
				while (done.length < children.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
				assert.equal(done.length, 2, 'both processes reported');
				const stoppedAt = Date.now();
				// Counted once both sides have drained: the processes stopped their turns before reporting, and the
				// proxy has answered everything they sent.
				await proxy.drained(10_000);
				t.diagnostic(
					`${renames.length} renames through the proxy, busiest second ${sandbox.globalLimit.peakPerSecond} at the stand-in`,
				);

				// Every rename went through the proxy, and the processes believe what the proxy answered. @discordjs/proxy
				// 2.1.1 answers 200 with no body when sending on failed with an error it does not know (it ends the
				// response before rethrowing): the bot then believes a rename that never reached the stand-in
				// (docs/scale.md, "Behind a REST proxy"). Those are counted apart, so both sides still add up exactly.
				const patches = proxy.answered.filter(
					(r) => r.method === 'PATCH' && r.path.startsWith('/api/v10/channels/') && r.status < 300,
				);
				const unsent = patches.filter((r) => r.failedUpstream !== null);
				t.diagnostic(
					`${unsent.length} PATCHes answered 200 by the proxy after failing upstream (${[...new Set(unsent.map((r) => r.failedUpstream))].join(', ')})`,
				);
				assert.equal(renames.length, patches.length, 'renames the processes saw = PATCHes the proxy answered 2xx');
				assert.equal(
					sandbox.renames.length,
					patches.length - unsent.length,
					'renames at the stand-in = PATCHes the proxy sent on and answered 2xx',
				);
				const renamed = new Set(sandbox.renames.map((r) => r.channelId));
				const missed = channels.filter(({ channelId }) => !renamed.has(channelId));
				assert.deepEqual(missed, [], `channels not renamed within ${RUN_MS} ms`);
				for (const { channelId } of channels) {
					assert.equal(
						sandbox.channel(channelId)?.name,
						sandbox.renames.findLast((r) => r.channelId === channelId)?.name,
					);
				}

				// Once per round across both processes. A round is a channel's slot: its interval placed at its
				// server's offset, claimed once across processes; at start each channel is due in its current slot.
				const everyMs = EVERY_MINUTES * 60_000;
				renames.sort((a, b) => a.at - b.at);
				const slotOf = (guildId: string, at: number) => Math.floor((at - spreadOffset(guildId, everyMs)) / everyMs);
				const counts = new Map<string, number>();
				for (const { channelId } of renames) counts.set(channelId, (counts.get(channelId) ?? 0) + 1);
				const overServed = channels.filter(({ guildId, channelId }) => {
					const slots = slotOf(guildId, stoppedAt) - slotOf(guildId, startedAt) + 1;
					return (counts.get(channelId) ?? 0) > slots;
				});
				assert.deepEqual(overServed, [], 'renamed more often than its rounds in the run');
				// In turn: no channel's second rename before every channel's first (a turn in flight in the other
				// process may finish up to a moment later).
				const firsts = new Map<string, number>();
				const seconds: number[] = [];
				for (const { channelId, at } of renames) {
					if (firsts.has(channelId)) seconds.push(at);
					else firsts.set(channelId, at);
				}
				const lastFirst = Math.max(...firsts.values());
				const early = seconds.filter((at) => at < lastFirst - 2000);
				assert.deepEqual(early, [], `second renames before the last first one at ${lastFirst}`);

				// The store's budget, not the proxy, keeps the seconds under the limit.
				const { peakPerSecond, refused } = sandbox.globalLimit;
				assert.ok(peakPerSecond <= PER_SECOND * 1.1, `${peakPerSecond} requests in one second at the stand-in`);
				assert.equal(refused, 0, 'requests refused by the global limit');
				assert.equal(
					done.reduce((sum, child) => sum + child.global429, 0),
					0,
					'global 429s seen by the processes',
				);
			} finally {
				for (const child of children) if (child.exitCode === null) child.kill();
				await proxy.close();
				await sandbox.close();
				await removeRun();
			}
		},
	);
}
