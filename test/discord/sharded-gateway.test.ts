import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { resolveShardCount } from '../../src/discord/shard-plan.js';
import { startBotProcesses, type BotProcesses } from '../../src/discord/sharding-manager.js';
import { loadConfig } from '../../src/config.js';
import { createLinkStore } from '../../src/links/link-store.js';
import { createLogger } from '../../src/logger.js';
import { openStores } from '../../src/store/open-stores.js';
import { startDiscordSandbox, type DiscordSandbox, type InteractionHandle } from '../../sandbox/index.js';
import { registerBotCommands } from '../app/harness.js';
import { BUNDLED_MAIN } from '../app/bot-process.js';
import { startCountingService, type CountingService } from './counting-service.js';
import { sharedStores, uniqueSnowflake, usable } from './shared-stores.js';

const GUILDS = 10_000;
const SHARDS = 4;
const PROCESSES = 2;
const SAMPLE = 40;
const BURST = 100;
const WAIT_MS = 90_000;

async function until(check: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

function deliveredShards(handle: InteractionHandle): number[] {
	return handle.deliveredTo.flatMap((delivery) => (delivery.via === 'gateway' ? [delivery.shardId] : []));
}

for (const store of await sharedStores()) {
	if (!usable(store, `${GUILDS} guilds over ${SHARDS} shards in ${PROCESSES} processes`)) continue;

	describe(`${GUILDS} guilds over ${SHARDS} shards in ${PROCESSES} bot processes on ${store.name}`, () => {
		let dir: string;
		let sandbox: DiscordSandbox;
		let service: CountingService;
		let processes: BotProcesses;
		const childLines: { child: number; line: string }[] = [];
		const managerLines: string[] = [];
		let env: Record<string, string>;
		/** Guilds of each process: process 0 holds shards 0-1, process 1 shards 2-3. */
		const guildsOf: string[][] = [[], []];
		const readyCount = (child: number) =>
			childLines.filter((entry) => entry.child === child && entry.line.includes('"msg":"bot ready"')).length;

		before(async () => {
			dir = mkdtempSync(join(tmpdir(), 'adstats-shards-'));
			service = await startCountingService(dir);
			sandbox = await startDiscordSandbox({ guildCount: GUILDS, recommendedShards: SHARDS, heartbeatIntervalMs: 5000 });
			await registerBotCommands(sandbox);
			env = {
				DISCORD_TOKEN: sandbox.token,
				DISCORD_APPLICATION_ID: sandbox.applicationId,
				DISCORD_API_URL: sandbox.apiUrl,
				STATS_API_BASE_URL: service.url,
				STORE_URL: store.url,
				LINK_SECRET: randomBytes(32).toString('hex'),
				CHART_RENDERER: 'none',
				STATS_COOLDOWN_SECONDS: '30',
				// Sampling would call the upstream on its own and muddle the request counts.
				HISTORY_SAMPLING: 'off',
				SHARD_COUNT: 'auto',
				BOT_PROCESSES: String(PROCESSES),
				LOG_LEVEL: 'debug',
			};
			const config = loadConfig(env);
			const totalShards = await resolveShardCount(config);
			assert.equal(totalShards, SHARDS, "SHARD_COUNT=auto takes /gateway/bot's recommendation");
			for (const guildId of sandbox.guildIds) {
				guildsOf[sandbox.shardOf(guildId, SHARDS) < SHARDS / 2 ? 0 : 1]!.push(guildId);
			}
			processes = await startBotProcesses({
				totalShards,
				processes: PROCESSES,
				token: config.discordToken,
				file: BUNDLED_MAIN,
				log: createLogger('info', lineSink(managerLines)),
				env,
				execArgv: [],
				spawnDelayMs: 0,
				onChildOutput: (child, line) => childLines.push({ child, line }),
			});
			await sandbox.waitForShards(SHARDS, WAIT_MS);
			// The stand-in has sent every guild; each process must also have taken them all in.
			await until(() => readyCount(0) >= 1 && readyCount(1) >= 1, 'both processes to be ready');
		});
		after(async () => {
			await processes?.stop();
			sandbox.assertNoViolations();
			await sandbox.close();
			await service.close();
			rmSync(dir, { recursive: true, force: true });
		});

		it('each process identified only its own shards, every guild landing on exactly one session', () => {
			const sessions = sandbox.gatewaySessions();
			assert.deepEqual(sessions.map((session) => session.shardId).sort(), [0, 1, 2, 3]);
			assert.deepEqual(processes.plan, [
				[0, 1],
				[2, 3],
			]);
			assert.equal(
				sessions.reduce((sum, session) => sum + session.guildCount, 0),
				GUILDS,
			);
		});

		it('an interaction from each guild of a sample is answered exactly once, by the shard owning it', async () => {
			const step = Math.floor(GUILDS / SAMPLE);
			const handles = Array.from({ length: SAMPLE }, (_, i) => {
				const guildId = sandbox.guildIds[i * step + (i % SHARDS)]!;
				return { guildId, handle: sandbox.dispatchCommand({ name: 'help', guildId }) };
			});
			for (const { guildId, handle } of handles) {
				const message = await handle.finalMessage();
				assert.match(message.content, /\/stats/);
				assert.deepEqual(deliveredShards(handle), [sandbox.shardOf(guildId, SHARDS)]);
			}
			const shardsSeen = new Set(handles.flatMap(({ handle }) => deliveredShards(handle)));
			assert.equal(shardsSeen.size, SHARDS, 'the sample covers every shard');
			for (const { handle } of handles) assert.equal(handle.callbackAttempts, 1);
		});

		it(`${BURST} concurrent /stats for one account across both processes make one upstream request`, async () => {
			const apiKey = service.createAccount('Burst_Account');
			const config = loadConfig(env);
			const stores = await openStores(store.url);
			const links = createLinkStore({
				keyv: stores.links,
				secret: config.linkSecret,
				verifyKey: async () => ({ accountName: 'Burst_Account' }),
			});
			// Linked straight in the store, so the upstream sees no verification call and the cache starts cold.
			const servers = [guildsOf[0]![5]!, guildsOf[1]![5]!];
			for (const guildId of servers) await links.linkServer(guildId, apiKey, '399999999999999999');
			await stores.close();

			const handles = Array.from({ length: BURST }, (_, i) =>
				sandbox.dispatchCommand({
					name: 'stats',
					userId: uniqueSnowflake(String(40 + (i % 50))),
					guildId: servers[i % 2]!,
					options: [{ name: 'scope', type: 3, value: 'server' }],
				}),
			);
			const messages = await Promise.all(handles.map((handle) => handle.finalMessage(WAIT_MS)));
			for (const message of messages) assert.match(JSON.stringify(message.embeds), /Burst\\\\_Account/);
			assert.equal(service.requestsFor(apiKey), 1);
			for (const handle of handles) assert.equal(handle.callbackAttempts, 1);
			const owners = new Set(handles.map((handle) => (deliveredShards(handle)[0]! < SHARDS / 2 ? 0 : 1)));
			assert.equal(owners.size, 2, 'both processes answered part of the burst');
		});

		it('the cooldown started in one process holds in the other', async () => {
			const userId = uniqueSnowflake('35');
			const first = await sandbox.dispatchCommand({ name: 'stats', userId, guildId: guildsOf[0]![7]! }).finalMessage();
			assert.doesNotMatch(first.content, /Slow down/);
			const second = await sandbox.dispatchCommand({ name: 'stats', userId, guildId: guildsOf[1]![7]! }).finalMessage();
			assert.match(second.content, /Slow down a little: try again in \d+ s/);
		});

		it('every log line of a bot process names its shards', () => {
			const parsed = childLines.map(({ child, line }) => ({ child, entry: JSON.parse(line) as { shards?: number[] } }));
			assert.ok(parsed.length > 0);
			for (const { child, entry } of parsed) assert.deepEqual(entry.shards, processes.plan[child]);
		});

		it('a process killed with SIGKILL is respawned, and its shards answer again', async () => {
			const child = processes.manager.shards.get(1)!;
			const killed = child.process as ChildProcess;
			const oldPid = killed.pid;
			const identifiesBefore = sandbox.identifyCount;
			const readyBefore = readyCount(1);
			killed.kill('SIGKILL');
			await until(
				() =>
					(child.process as ChildProcess | null)?.pid !== undefined && (child.process as ChildProcess).pid !== oldPid,
				'the respawn',
			);
			await until(() => sandbox.identifyCount >= identifiesBefore + 2, 'the respawned process to identify its shards');
			await sandbox.waitForShards(SHARDS, WAIT_MS);
			await until(() => readyCount(1) > readyBefore, 'the respawned process to be ready');
			for (const guildId of [guildsOf[1]![11]!, guildsOf[1]![12]!]) {
				const handle = sandbox.dispatchCommand({ name: 'help', guildId });
				assert.match((await handle.finalMessage(WAIT_MS)).content, /\/stats/);
				assert.equal(handle.callbackAttempts, 1);
			}
			assert.ok(managerLines.some((line) => line.includes('bot process died') && line.includes('SIGKILL')));
		});
	});
}

function lineSink(lines: string[]): Writable {
	return new Writable({
		write(chunk: Buffer, _encoding, done) {
			lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
			done();
		},
	});
}
