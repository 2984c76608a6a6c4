// Two and four bot processes on Redis and on PostgreSQL spend one REST budget against the stand-in, which
// enforces Discord's global limit: 2,000 servers with 5 stat channels each, STAT_CHANNEL_MINUTES=5, two
// minutes of real time. Each variant has its own stand-in and namespace; the Redis ones run at once, then the
// PostgreSQL ones.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { createClient } from '@redis/client';
import pg from 'pg';
import { startDiscordSandbox } from '../../sandbox/index.js';
import type { JobsChildMessage, JobsChildOptions } from '../../bench/jobs-child.js';
import { postgresBackend, POSTGRES_URL, redisBackend, REDIS_URL } from '../links/backends.js';
import { startTcpProxy } from '../store/tcp-proxy.js';
import { seedStatChannels } from '../watch/stat-channel-records.js';

const CHILD = new URL('../../bench/jobs-child.ts', import.meta.url).pathname;
const SERVERS = 2000;
const PER_SECOND = 40;
const RUN_MS = Number(process.env.BUDGET_TEST_RUN_MS ?? 120_000);
const runPrefix = () => `rb${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

interface Variant {
	url: string;
	processes: number;
	/** Freeze the store (a paused server behind a proxy) for 5 s mid-run and answer an interaction meanwhile. */
	freeze?: boolean;
}

async function removeRun(url: string, prefix: string): Promise<void> {
	if (url.startsWith('redis')) {
		const client = createClient({ url });
		await client.connect();
		for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
			if (keys.length > 0) await client.del(keys);
		}
		client.destroy();
		return;
	}
	const client = new pg.Client({ connectionString: url });
	await client.connect();
	for (const table of ['keyv', 'adstats_claims', 'adstats_rest_budget']) {
		await client.query(`DELETE FROM ${table} WHERE key LIKE $1`, [`${prefix}%`]).catch(() => undefined);
	}
	await client.end();
}

async function runVariant(variant: Variant) {
	const prefix = runPrefix();
	const sandbox = await startDiscordSandbox({ guildCount: SERVERS, channelsPerGuild: 4, validateSchema: false });
	const proxy = variant.freeze ? await startTcpProxy(variant.url) : null;
	const storeUrl = proxy?.url ?? variant.url;
	const channels = sandbox.guildIds.flatMap((guildId) =>
		sandbox.guildChannelIds(guildId).map((channelId) => ({ guildId, channelId })),
	);
	const children: ChildProcess[] = [];
	try {
		await seedStatChannels(variant.url, prefix, channels);
		const renames: { channelId: string; at: number }[] = [];
		const answers: { kind: string; ms: number; status: string }[] = [];
		const done: Extract<JobsChildMessage, { done: unknown }>['done'][] = [];
		const options: JobsChildOptions = {
			storeUrl,
			prefix,
			apiUrl: sandbox.apiUrl,
			token: sandbox.token,
			perSecond: PER_SECOND,
			processes: variant.processes,
			everyMinutes: 5,
		};
		for (let index = 0; index < variant.processes; index += 1) {
			const child = fork(CHILD, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'] });
			children.push(child);
			child.on('message', (message: JobsChildMessage) => {
				if ('renamed' in message) renames.push(message.renamed);
				if ('answered' in message) answers.push(message.answered);
				if ('done' in message) done.push(message.done);
			});
			await once(child, 'message');
		}
		for (const child of children) child.send({ start: true });
		if (proxy) {
			await new Promise((resolve) => setTimeout(resolve, RUN_MS / 3));
			await proxy.setMode('stall');
			await new Promise((resolve) => setTimeout(resolve, 1000));
			// HTTP interactions: the endpoint hands the interaction to a bot process, which answers by REST.
			const endpoint = createServer((req, res) => {
				let raw = '';
				req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
				req.on('end', () => {
					const { id, token } = JSON.parse(raw) as { id: string; token: string };
					const answered = new Promise<void>((resolve) => {
						children[0]?.once('message', () => resolve());
					});
					children[0]?.send({ interaction: { id, token, app: sandbox.applicationId } });
					void answered.then(() => res.writeHead(202).end());
				});
			});
			await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
			sandbox.useInteractionsEndpoint(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`);
			sandbox.dispatchCommand({ name: 'stats', guildId: sandbox.guildIds[0] });
			setTimeout(() => endpoint.close(), 10_000);
			await new Promise((resolve) => setTimeout(resolve, 4000));
			await proxy.setMode('pass');
			await new Promise((resolve) => setTimeout(resolve, RUN_MS - RUN_MS / 3 - 5000));
		} else {
			await new Promise((resolve) => setTimeout(resolve, RUN_MS));
		}
		for (const child of children) child.send({ stop: true });
		const deadline = Date.now() + 60_000;
		while (done.length < children.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
		// What the stand-in counted is read only after every process has stopped its turns and reported (a process
		// still renaming would add to one side after the other was read).
		return {
			renames,
			answers,
			done,
			processes: children.length,
			limit: sandbox.globalLimit,
			channels: channels.length,
		};
	} finally {
		for (const child of children) if (child.exitCode === null) child.kill();
		await proxy?.close();
		await sandbox.close();
		await removeRun(variant.url, prefix);
	}
}

function assertOneBudget(result: Awaited<ReturnType<typeof runVariant>>, label: string) {
	const { limit, renames, done } = result;
	assert.equal(done.length, result.processes, `${label}: every process reported`);
	const busiest = limit.peakPerSecond;
	assert.ok(busiest <= PER_SECOND * 1.1, `${label}: ${busiest} requests in one second at the stand-in`);
	assert.equal(limit.refused, 0, `${label}: requests refused by the global limit`);
	assert.equal(
		done.reduce((sum, child) => sum + child.global429, 0),
		0,
		`${label}: global 429s seen`,
	);
	// The work went on (on a loaded 2-core runner the processes, not the budget, may be the limit).
	assert.ok(renames.length >= (PER_SECOND * RUN_MS) / 1000 / 10, `${label}: only ${renames.length} renames`);
	// Fair: no channel got a second rename before every channel got its first.
	const counts = new Map<string, number>();
	for (const rename of renames) counts.set(rename.channelId, (counts.get(rename.channelId) ?? 0) + 1);
	if (counts.size < result.channels) {
		const twice = [...counts].filter(([, count]) => count > 1);
		assert.deepEqual(twice, [], `${label}: renamed twice while others waited`);
	}
	// Lateness is reported (the first pass of 10,000 renames takes 250 s at 40 a second: it runs late).
	assert.ok(
		done.some((child) => child.lateness !== null && child.lateness.served > 0),
		`${label}: no lateness`,
	);
}

const redis = await redisBackend();
const postgres = await postgresBackend();

describe('one REST budget for every process against the global limit', () => {
	const targets = [
		{ backend: redis, url: REDIS_URL },
		{ backend: postgres, url: POSTGRES_URL },
	];
	for (const { backend } of targets) {
		if (backend.unavailable) {
			if (process.env.CI === 'true')
				test(`${backend.name} is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
			else test(`${backend.name} skipped`, (t) => t.skip(backend.unavailable ?? ''));
		}
	}
	const variants: (Variant & { name: string })[] = [];
	for (const { backend, url } of targets) {
		if (backend.unavailable) continue;
		variants.push({ name: `2 processes on ${backend.name}`, url, processes: 2 });
		variants.push({ name: `4 processes on ${backend.name}`, url, processes: 4 });
	}
	if (!redis.unavailable)
		variants.push({ name: '2 processes on redis, frozen 5 s', url: REDIS_URL, processes: 2, freeze: true });

	test(
		'no second above the budget, no global 429, no second turn before every first, lateness reported; a frozen store leaves replies alone',
		{ timeout: RUN_MS * 5 + 300_000 },
		async (t) => {
			// Each on its own stand-in, so each counts its own seconds; in two waves (Redis, then PostgreSQL), so a
			// 2-core runner carries at most 8 bot processes and 3 stand-ins at once beside the other test files.
			const results: { variant: (typeof variants)[number]; result: Awaited<ReturnType<typeof runVariant>> }[] = [];
			for (const wave of [REDIS_URL, POSTGRES_URL]) {
				const waveVariants = variants.filter((variant) => variant.url === wave);
				results.push(
					...(await Promise.all(waveVariants.map(async (variant) => ({ variant, result: await runVariant(variant) })))),
				);
			}
			for (const { variant, result } of results) {
				t.diagnostic(
					`${variant.name}: ${result.renames.length} renames, peak ${result.limit.peakPerSecond}/s, ${result.limit.refused} refused`,
				);
			}
			for (const { variant, result } of results) {
				assertOneBudget(result, variant.name);
				if (variant.freeze) {
					const callback = result.answers.find((answer) => answer.kind === 'callback');
					const followUp = result.answers.find((answer) => answer.kind === 'followUp');
					assert.equal(callback?.status, 'ok', JSON.stringify(result.answers));
					assert.equal(followUp?.status, 'ok', JSON.stringify(result.answers));
					assert.ok((callback?.ms ?? Infinity) < 1000, `callback took ${callback?.ms} ms while the store was frozen`);
					assert.ok((followUp?.ms ?? Infinity) < 1000, `follow-up took ${followUp?.ms} ms while the store was frozen`);
				}
			}
		},
	);
});
