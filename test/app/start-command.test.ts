import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { registerBotCommands } from './harness.js';
import { freePort, freePorts, startCommandArgs, until } from './bot-process.js';
import { sharedStores, usable } from '../discord/shared-stores.js';
import { parsePrometheusText } from '../metrics/prometheus-text.js';

const STOP_MS = 15_000;

/** `npm start`'s command in a directory without a .env, with exactly `env`. */
function startMain(env: Record<string, string>, cwd: string) {
	const child = spawn(process.execPath, startCommandArgs(), {
		cwd,
		env: { PATH: process.env.PATH ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, exited, output: () => output };
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

const redis = (await sharedStores()).find((store) => store.name === 'redis')!;
if (usable(redis, 'npm start with several processes and in HTTP mode')) {
	describe('npm start: BOT_PROCESSES and INTERACTIONS_PORT', () => {
		let dir: string;
		let sandbox: DiscordSandbox;
		let env: Record<string, string>;

		before(async () => {
			dir = mkdtempSync(join(tmpdir(), 'adstats-start-'));
			sandbox = await startDiscordSandbox({ guildCount: 8, recommendedShards: 2 });
			await registerBotCommands(sandbox);
			env = {
				DISCORD_TOKEN: sandbox.token,
				DISCORD_APPLICATION_ID: sandbox.applicationId,
				DISCORD_API_URL: sandbox.apiUrl,
				// Nothing here calls the stats service.
				STATS_API_BASE_URL: 'http://127.0.0.1:9',
				STORE_URL: redis.url,
				LINK_SECRET: randomBytes(32).toString('hex'),
				CHART_RENDERER: 'none',
				// Sampling would call the upstream on its own and muddle the request counts.
				HISTORY_SAMPLING: 'off',
				LOG_LEVEL: 'info',
			};
		});
		after(async () => {
			sandbox.assertNoViolations();
			await sandbox.close();
			rmSync(dir, { recursive: true, force: true });
		});

		it('BOT_PROCESSES=2 spreads the recommended shards over two children, and SIGTERM stops them all', async () => {
			// The manager's port and each child's (METRICS_PORT + 1 + i), all free.
			const metricsPort = await freePorts(3);
			const bot = startMain({ ...env, BOT_PROCESSES: '2', METRICS_PORT: String(metricsPort) }, dir);
			try {
				await sandbox.waitForShards(2, 60_000);
				await until(() => (bot.output().match(/"msg":"bot ready"/g) ?? []).length >= 2, 'both children ready');
				// Each process holds one of the two shards: two /help in one process's guilds, one in the other's.
				const byProcess = [0, 1].map((shard) => sandbox.guildIds.filter((id) => sandbox.shardOf(id, 2) === shard));
				for (const guildId of [byProcess[0]![0]!, byProcess[0]![1]!, byProcess[1]![0]!]) {
					const handle = sandbox.dispatchCommand({ name: 'help', guildId });
					// Routing is what this checks, not speed: a child that has just started, on a 2-core machine busy with
					// the other test files, gets longer than the stand-in's default 5 s.
					const answer = await handle.finalMessage(15_000).catch((error: unknown) => {
						throw new Error(`${String(error)}; the bot's output:\n${bot.output()}`);
					});
					assert.match(answer.content, /\/stats/);
					assert.equal(handle.callbackAttempts, 1);
				}
				const pids = [...bot.output().matchAll(/"pid":(\d+)/g)].map((match) => Number(match[1]));
				assert.equal(pids.length, 2, 'the manager names each child');
				assert.match(bot.output(), /"role":"manager"/);

				// METRICS_PORT is the manager's: every process summed; each child serves its own on METRICS_PORT + 1 + i.
				await until(() => /sum of every bot process/.test(bot.output()), 'the manager to serve metrics');
				for (const port of [metricsPort, metricsPort + 1, metricsPort + 2]) {
					const health = await fetch(`http://127.0.0.1:${port}/healthz`);
					assert.equal(health.status, 200, `METRICS_PORT + ${port - metricsPort} is healthy`);
				}
				const helpAnswered = async (port: number) => {
					const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
					const samples = parsePrometheusText(text).samples.filter(
						(sample) => sample.name === 'adstats_interactions_total' && sample.labels.command === 'help',
					);
					return { count: samples.reduce((sum, sample) => sum + sample.value, 0), text };
				};
				const [first, second, sum] = await Promise.all(
					[metricsPort + 1, metricsPort + 2, metricsPort].map((port) => helpAnswered(port)),
				);
				assert.deepEqual([first!.count, second!.count].sort(), [1, 2], "each child counts its own process's");
				assert.equal(sum!.count, 3, 'the manager serves the sum');
				assert.match(sum!.text, /^adstats_bot_processes 2$/m);
				assert.match(sum!.text, /^adstats_bot_processes_unanswered 0$/m);
				const exposition = parsePrometheusText(sum!.text);
				for (const shard of ['0', '1']) {
					const current = exposition.samples.filter(
						(sample) => sample.name === 'adstats_shard_status' && sample.labels.shard === shard && sample.value === 1,
					);
					assert.deepEqual(
						current.map((sample) => sample.labels.status),
						['ready'],
						`shard ${shard} is ready in the sum`,
					);
				}

				bot.child.kill('SIGTERM');
				const started = Date.now();
				assert.equal(await bot.exited, 0);
				assert.ok(Date.now() - started < STOP_MS);
				await until(() => pids.every((pid) => !isAlive(pid)), 'the children to exit', 5000);
			} finally {
				bot.child.kill('SIGKILL');
				// A manager killed outright leaves its children running: they would connect on into the next test.
				for (const match of bot.output().matchAll(/"pid":(\d+)/g)) {
					const pid = Number(match[1]);
					if (isAlive(pid)) process.kill(pid, 'SIGKILL');
				}
			}
		});

		it('INTERACTIONS_PORT serves signed interactions with no gateway, and SIGTERM exits 0', async () => {
			const port = await freePort();
			const metricsPort = await freePort();
			const identifies = sandbox.identifyCount;
			const bot = startMain(
				{
					...env,
					INTERACTIONS_PORT: String(port),
					DISCORD_PUBLIC_KEY: sandbox.publicKeyHex,
					METRICS_PORT: String(metricsPort),
				},
				dir,
			);
			const url = `http://127.0.0.1:${port}/interactions`;
			try {
				await until(() => bot.output().includes('"msg":"bot ready"'), 'the endpoint to listen');
				// Ready in HTTP mode: the interactions listener answers and the store answers.
				const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
				const body = (await health.json()) as { checks: { name: string; ok: boolean }[] };
				assert.equal(health.status, 200, JSON.stringify(body));
				assert.deepEqual(body.checks.map((check) => [check.name, check.ok]).sort(), [
					['interactions', true],
					['store', true],
				]);
				assert.ok((await sandbox.verifyInteractionsEndpoint(url)).ok);
				sandbox.useInteractionsEndpoint(url);
				const handle = sandbox.dispatchCommand({ name: 'help' });
				assert.match((await handle.finalMessage()).content, /\/stats/);
				assert.equal(sandbox.identifyCount, identifies, 'no gateway connection');
				bot.child.kill('SIGTERM');
				assert.equal(await bot.exited, 0);
			} finally {
				sandbox.useInteractionsEndpoint(null);
				bot.child.kill('SIGKILL');
			}
		});
	});
}
