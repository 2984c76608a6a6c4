// The Dockerfile and compose.yaml as a host runs them: the image is built from this checkout, then the compose file
// runs the bot, the dashboard and Redis against the local Discord stand-in and the stats service on this host.
// The compose file is used as shipped, beside a .env and an override (host networking: the stand-in and the service
// listen on this host's loopback, and this test's Redis gets a port of its own instead of the host's 6379).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { openStatsStore, seedDemoAccount, startStatsServer, type StatsStore } from '../../src/service/index.js';
import { freePort, until } from '../app/bot-process.js';
import { startDelayingProxy, type DelayingProxy } from './delaying-proxy.js';
import { describeRun, dockerHost, ROOT, run, type Ran } from './docker.js';

// A tag of this run's own: runs from other checkouts on one Docker daemon never swap each other's image.
const IMAGE = `adstats-discord-bot:test-${process.pid}`;
/** The goal docs/containers.md states: the image weighs at most this much more than node:20-bookworm-slim. */
const MAX_ADDED_BYTES = 200 * 1000 * 1000;
/** Docker's own stop timeout is 10 s: the bot must be gone well within it, drained. */
const STOP_WITHIN_MS = 10_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const USER_ID = '350000000000000001';
const WEB_PORT_MAPPING = /^ {4}ports:\n {6}- '\$\{WEB_PORT:-8080\}:8080'\n/mu;

const host = await dockerHost();

if (host.unavailable !== null) {
	if (process.env.CI === 'true') test('Docker works in CI for the container test', () => assert.fail(host.unavailable));
	else test('the image and the compose file', (t) => t.skip(host.unavailable));
} else {
	const compose = host.compose;
	describe('the image and the compose file', { timeout: 45 * 60_000 }, () => {
		let dir: string;
		let project: string;
		let sandbox: DiscordSandbox;
		let service: { url: string; store: StatsStore; close(): Promise<void> };
		let apiKey: string;
		let proxy: DelayingProxy;
		let ports: { redis: number; metrics: number; web: number };

		const docker = (args: string[], timeoutMs = 120_000) => run('docker', args, { timeoutMs });
		const composeRun = (args: string[], timeoutMs = 180_000): Promise<Ran> =>
			run(compose[0]!, [...compose.slice(1), '-p', project, '-f', 'compose.yaml', '-f', 'compose.test.yaml', ...args], {
				cwd: dir,
				timeoutMs,
			});
		const containerOf = async (service: string) => (await composeRun(['ps', '-q', service], 30_000)).stdout.trim();
		const inImage = (command: string[]) => docker(['run', '--rm', '--network', 'none', IMAGE, ...command]);

		before(async () => {
			const built = await docker(['build', '--network', 'host', '-t', IMAGE, ROOT], 30 * 60_000);
			assert.equal(built.code, 0, describeRun(built));
			dir = mkdtempSync(join(tmpdir(), 'adstats-container-'));
			project = `adstats-test-${process.pid}`;
			const store = openStatsStore(join(dir, 'service.sqlite'));
			const server = await startStatsServer({ store, port: 0, rateLimitPerMinute: 0 });
			service = { url: server.url, store, close: async () => (await server.close(), store.close()) };
			apiKey = seedDemoAccount(store, { name: 'Container_Account', days: 60 }).apiKey;
			proxy = await startDelayingProxy(service.url);
			sandbox = await startDiscordSandbox({ guildCount: 1, heartbeatIntervalMs: 5000 });
			ports = { redis: await freePort(), metrics: await freePort(), web: await freePort() };
			writeProject();
		});

		after(async () => {
			if (dir) {
				const down = await composeRun(['down', '-v', '--remove-orphans', '-t', '20'], 120_000);
				if (down.code !== 0) console.error(`compose down failed: ${describeRun(down)}`);
			}
			// The tag only: the layers stay in Docker's build cache for the next run.
			await docker(['image', 'rm', IMAGE]);
			await sandbox?.close();
			await proxy?.close();
			await service?.close();
			if (dir) rmSync(dir, { recursive: true, force: true });
		});

		/** The compose file as shipped, a host's .env, and this test's override, in a folder of their own. */
		function writeProject() {
			// Host networking publishes nothing, and Compose refuses a port mapping beside it (v1 cannot drop one in an
			// override): the copy loses the web's mapping and nothing else.
			const shipped = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
			const withoutPorts = shipped.replace(WEB_PORT_MAPPING, '');
			assert.notEqual(withoutPorts, shipped, 'compose.yaml publishes the web on WEB_PORT');
			writeFileSync(join(dir, 'compose.yaml'), withoutPorts);
			const env = {
				DISCORD_TOKEN: sandbox.token,
				DISCORD_APPLICATION_ID: sandbox.applicationId,
				DISCORD_API_URL: sandbox.apiUrl,
				DISCORD_CLIENT_SECRET: 'container-test-client-secret',
				STATS_API_BASE_URL: proxy.url,
				// Every /stats asks the service, so the one held in flight at the stop is a real call.
				STATS_CACHE_TTL_SECONDS: '0',
				LINK_SECRET: randomBytes(32).toString('hex'),
				CHART_RENDERER: 'local',
				STATS_COOLDOWN_SECONDS: '0',
				HISTORY_SAMPLING: 'off',
				WEB_PUBLIC_URL: `http://127.0.0.1:${ports.web}`,
				// Read by compose.yaml's `${METRICS_PORT:-9464}`: the bot's own port on this shared host network.
				METRICS_PORT: String(ports.metrics),
				METRICS_HOST: '127.0.0.1',
				WEB_HOST: '127.0.0.1',
			};
			writeFileSync(
				join(dir, '.env'),
				Object.entries(env)
					.map(([name, value]) => `${name}=${value}`)
					.join('\n'),
			);
			const storeUrl = `redis://127.0.0.1:${ports.redis}`;
			const hostNetwork = { network_mode: 'host', image: IMAGE };
			// JSON is YAML: compose reads it as an override file.
			const override = {
				services: {
					bot: { ...hostNetwork, environment: { STORE_URL: storeUrl } },
					web: {
						...hostNetwork,
						environment: { STORE_URL: storeUrl, WEB_HOST: '127.0.0.1', WEB_PORT: String(ports.web) },
						healthcheck: {
							test: ['CMD', 'node', 'scripts/container-healthcheck.mjs', `http://127.0.0.1:${ports.web}/healthz`],
							interval: '2s',
						},
					},
					redis: {
						network_mode: 'host',
						command: ['redis-server', '--port', String(ports.redis), '--bind', '127.0.0.1', '--save', ''],
						healthcheck: { test: ['CMD', 'redis-cli', '-p', String(ports.redis), 'ping'], interval: '2s' },
					},
				},
			};
			writeFileSync(join(dir, 'compose.test.yaml'), JSON.stringify(override, null, 2));
		}

		async function waitForHealthy(service: string, timeoutMs = 120_000): Promise<void> {
			const id = await containerOf(service);
			assert.ok(id, `no ${service} container`);
			const deadline = Date.now() + timeoutMs;
			let status = '';
			while (Date.now() < deadline) {
				status = (await docker(['inspect', '-f', '{{.State.Health.Status}}', id], 30_000)).stdout.trim();
				if (status === 'healthy') return;
				await new Promise((resolve) => setTimeout(resolve, 1000));
			}
			const logs = await composeRun(['logs', '--no-color', '--tail', '60', service], 30_000);
			const health = await docker(['inspect', '-f', '{{json .State.Health}}', id], 30_000);
			assert.fail(`${service} is ${status}, not healthy: ${health.stdout}\n${logs.stdout}`);
		}

		it('runs as a user other than root, with node as the default command and a health check', async () => {
			const uid = await inImage(['id', '-u']);
			assert.equal(uid.code, 0, describeRun(uid));
			assert.notEqual(uid.stdout.trim(), '0');
			const config = await docker(['image', 'inspect', '-f', '{{json .Config}}', IMAGE]);
			const { Cmd, Healthcheck, Env } = JSON.parse(config.stdout) as {
				Cmd: string[];
				Healthcheck: { Test: string[] };
				Env: string[];
			};
			assert.deepEqual(Cmd, ['node', 'dist/main.js'], 'node itself, so SIGTERM reaches the bot');
			assert.match(Healthcheck.Test.join(' '), /container-healthcheck\.mjs/);
			assert.ok(Env.some((entry) => /^METRICS_PORT=\d+$/u.test(entry)));
		});

		it('holds no tests, .env, docs, demo, sandbox or development packages', async () => {
			const listed = await inImage(['sh', '-c', 'cd /app && ls -A && ls -A node_modules']);
			assert.equal(listed.code, 0, describeRun(listed));
			const names = new Set(listed.stdout.split('\n'));
			for (const absent of ['test', '.env', '.env.example', 'docs', 'bench', 'sandbox', 'README.md', '.git']) {
				assert.ok(!names.has(absent), `${absent} is not in the image`);
			}
			for (const devPackage of ['typescript', 'eslint', 'prettier', 'playwright-core', 'dependency-cruiser']) {
				assert.ok(!names.has(devPackage), `the development package ${devPackage} is not in the image`);
			}
			for (const present of ['dist', 'src', 'commands', 'package.json', 'better-sqlite3', 'tsx']) {
				assert.ok(names.has(present), `${present} is in the image`);
			}
			const found = await inImage([
				'sh',
				'-c',
				'find /app -path /app/node_modules -prune -o \\( -name "*.test.*" -o -name ".env*" \\) -print',
			]);
			assert.equal(found.code, 0, describeRun(found));
			assert.equal(found.stdout.trim(), '', 'no test file and no .env anywhere outside the packages');
		});

		it('loads better-sqlite3 and sqlite3, and the chart renderer draws a PNG', async () => {
			const sqlite = await inImage([
				'node',
				'-e',
				"const db = new (require('better-sqlite3'))(':memory:'); require('sqlite3');" +
					"console.log(db.prepare('select 40 + 2 as answer').get().answer)",
			]);
			assert.equal(sqlite.code, 0, describeRun(sqlite));
			assert.equal(sqlite.stdout.trim(), '42');
			const chart = await inImage([
				'node',
				'--import',
				'tsx',
				'--input-type=module',
				'-e',
				"const { createLocalRenderer } = await import('/app/src/render/local-renderer.ts');" +
					'const png = await createLocalRenderer().render({ type: "bar", data: { labels: ["a", "日本"],' +
					' datasets: [{ label: "sends", data: [3, 5] }] } }, { width: 300, height: 150 });' +
					'process.stdout.write(png.subarray(0, 8).toString("hex") + " " + png.length);',
			]);
			assert.equal(chart.code, 0, describeRun(chart));
			const [signature, length] = chart.stdout.trim().split(' ');
			assert.equal(signature, PNG_SIGNATURE.toString('hex'));
			assert.ok(Number(length) > 1000, 'a drawn chart, not an empty image');
		});

		it(`weighs at most ${MAX_ADDED_BYTES / 1e6} MB more than node:20-bookworm-slim`, async (t) => {
			const size = async (image: string) =>
				Number((await docker(['image', 'inspect', '-f', '{{.Size}}', image])).stdout.trim());
			const [ours, slim] = [await size(IMAGE), await size('node:20-bookworm-slim')];
			t.diagnostic(`image ${(ours / 1e6).toFixed(0)} MB, node:20-bookworm-slim ${(slim / 1e6).toFixed(0)} MB`);
			assert.ok(ours > slim);
			assert.ok(ours - slim <= MAX_ADDED_BYTES, `${((ours - slim) / 1e6).toFixed(0)} MB above the slim image`);
		});

		it('registers the commands with `run --rm bot npm run register`', async () => {
			const registered = await composeRun(['run', '--rm', '-T', 'bot', 'npm', 'run', 'register']);
			assert.equal(registered.code, 0, describeRun(registered));
			assert.equal(sandbox.registeredCommands().length, commandDefinitions.length);
			assert.ok(!`${registered.stdout}${registered.stderr}`.includes(sandbox.token), 'the token is never printed');
		});

		it('`up -d`: the bot becomes healthy and answers /stats through the stand-in, the dashboard too', async () => {
			const up = await composeRun(['up', '-d'], 300_000);
			assert.equal(up.code, 0, describeRun(up));
			await waitForHealthy('bot');
			const pid1 = await docker(['exec', await containerOf('bot'), 'cat', '/proc/1/cmdline']);
			assert.equal(pid1.stdout.split('\0').slice(0, 2).join(' '), 'node dist/main.js', 'node is PID 1');
			const health = await fetch(`http://127.0.0.1:${ports.metrics}/healthz`);
			const body = (await health.json()) as { checks: { name: string; ok: boolean }[] };
			assert.deepEqual(body.checks.map((check) => [check.name, check.ok]).sort(), [
				['gateway', true],
				['store', true],
			]);

			const link = sandbox.dispatchCommand({ name: 'link', userId: USER_ID });
			const modal = await link.firstResponse(15_000);
			assert.equal(modal.type, 9, 'the key is asked for in a modal');
			const linked = await sandbox
				.dispatchModalSubmit({ customId: String(modal.data.custom_id), fields: { 'api-key': apiKey }, userId: USER_ID })
				.finalMessage(15_000);
			assert.match(linked.content, /Container\\_Account/);
			const stats = await sandbox.dispatchCommand({ name: 'stats', userId: USER_ID }).finalMessage(30_000);
			assert.equal(stats.embeds.length, 1);
			assert.match(JSON.stringify(stats.embeds[0]), /Container\\\\_Account/);
			assert.equal(stats.files.length, 1, 'the chart drawn inside the container');
			assert.ok(stats.files[0]!.bytes.subarray(0, 8).equals(PNG_SIGNATURE));

			await waitForHealthy('web');
			const web = await fetch(`http://127.0.0.1:${ports.web}/healthz`);
			assert.equal(web.status, 200);
		});

		it('`stop` drains the bot: the reply in flight goes out, and it exits 0 within 10 s', async () => {
			const id = await containerOf('bot');
			// Within the bot's 2.5 s budget for one stats call: held, not failed.
			proxy.delayMs = 1500;
			const inFlight = sandbox.dispatchCommand({ name: 'stats', userId: USER_ID });
			await until(() => proxy.pending > 0, 'the /stats call to reach the stats service', 15_000);
			const stopped = await composeRun(['stop', 'bot'], 60_000);
			assert.equal(stopped.code, 0, describeRun(stopped));
			assert.ok(stopped.ms < STOP_WITHIN_MS, `stopped in ${stopped.ms} ms`);
			const reply = await inFlight.finalMessage(5000);
			assert.match(JSON.stringify(reply.embeds), /Container\\\\_Account/, 'the figures, not an error');
			const state = await docker(['inspect', '-f', '{{.State.ExitCode}} {{.State.OOMKilled}}', id]);
			assert.equal(state.stdout.trim(), '0 false', 'exit 0: drained, not killed');
			const logs = await docker(['logs', id]);
			assert.match(logs.stdout, /"msg":"stopped"/);
		});

		it('`run --rm bot npm run doctor` and `links -- count` work inside', async () => {
			const doctor = await composeRun(['run', '--rm', '-T', 'bot', 'npm', 'run', 'doctor']);
			const output = doctor.stdout;
			assert.match(output, /^ok config: /m, describeRun(doctor));
			assert.match(output, /^ok discord-token: /m);
			assert.match(output, /^ok store: /m);
			assert.match(output, /^ok chart: /m);
			assert.match(output, /^ok commands: /m);
			assert.match(output, /^doctor: \d+ ok, \d+ warn, \d+ fail$/m);
			assert.ok(!output.includes(sandbox.token));

			const count = await composeRun(['run', '--rm', '-T', 'bot', 'npm', 'run', 'links', '--', 'count']);
			assert.equal(count.code, 0, describeRun(count));
			assert.match(count.stdout, /^links: 1$/m, 'the link made through the stand-in, in the compose Redis');
		});
	});
}
