// `npm start` runs the bundle in dist/ (scripts/build.mjs): each file the bot reads relative to its own code must
// be found from there too. The chart worker, the fonts, the dashboard's files and package.json are each read here
// through the bundle, the way a host's bot reads them.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { isPng } from '../../src/render/png.js';
import { startCountingService, type CountingService } from '../discord/counting-service.js';
import { registerBotCommands } from './harness.js';
import { freePort, startCommandArgs, until } from './bot-process.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
	name: string;
	version: string;
};
const sourceFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url));

describe("npm start's bundle", () => {
	let dir: string;
	let sandbox: DiscordSandbox;
	let service: CountingService;

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), 'adstats-bundle-'));
		service = await startCountingService(dir);
		sandbox = await startDiscordSandbox({ guildCount: 1 });
		await registerBotCommands(sandbox);
	});
	after(async () => {
		await sandbox.close();
		await service.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("draws a member's chart in its render pool, serves the dashboard's files and names its version upstream", async () => {
		const webPort = await freePort();
		const child = spawn(process.execPath, startCommandArgs(), {
			cwd: dir,
			env: {
				PATH: process.env.PATH ?? '',
				DISCORD_TOKEN: sandbox.token,
				DISCORD_APPLICATION_ID: sandbox.applicationId,
				DISCORD_API_URL: sandbox.apiUrl,
				DISCORD_CLIENT_SECRET: sandbox.clientSecret,
				DISCORD_OAUTH_URL: sandbox.oauthAuthorizeUrl,
				STATS_API_BASE_URL: service.url,
				STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
				LINK_SECRET: randomBytes(32).toString('hex'),
				CHART_RENDERER: 'local',
				STATS_COOLDOWN_SECONDS: '0',
				HISTORY_SAMPLING: 'off',
				WEB_PORT: String(webPort),
				WEB_PUBLIC_URL: `http://127.0.0.1:${webPort}`,
				LOG_LEVEL: 'info',
			},
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
		try {
			await until(() => output.includes('"msg":"bot ready"'), `the bot to be ready: ${output}`);

			const apiKey = service.createAccount('Bundle Account');
			const modal = await sandbox.dispatchCommand({ name: 'link' }).firstResponse();
			assert.equal(modal.type, 9, 'the key is asked for in a modal');
			const linked = await sandbox
				.dispatchModalSubmit({ customId: String(modal.data.custom_id), fields: { 'api-key': apiKey } })
				.finalMessage();
			assert.match(linked.content, /Bundle Account/u);

			const stats = await sandbox.dispatchCommand({ name: 'stats' }).finalMessage();
			const chart = stats.files[0];
			assert.ok(chart, `the reply carries the chart: ${output}`);
			assert.ok(isPng(chart.bytes), 'the chart is a PNG');
			assert.ok(chart.bytes.length > 10_000, 'a drawn chart, not a blank picture');

			const base = `http://127.0.0.1:${webPort}/static`;
			for (const [file, source] of [
				['dashboard.css', 'src/web/static/dashboard.css'],
				['dashboard.js', 'src/web/static/dashboard.js'],
			] as const) {
				const answer = await fetch(`${base}/${file}`);
				assert.equal(answer.status, 200, file);
				assert.deepEqual(Buffer.from(await answer.arrayBuffer()), sourceFile(source), file);
			}
			assert.equal((await fetch(`${base}/chart.umd.min.js`)).status, 200);

			assert.deepEqual(service.userAgents(), [`${packageJson.name}/${packageJson.version}`]);
			assert.ok(!output.includes(apiKey), 'the key is in no log line');

			child.kill('SIGTERM');
			assert.equal(await exited, 0);
		} finally {
			child.kill('SIGKILL');
		}
	});
});

describe('scripts/build.mjs', () => {
	const root = fileURLToPath(new URL('../..', import.meta.url));
	let copy: string;
	before(() => {
		// A copy of what the build reads, so that a source file can change without touching the project.
		copy = mkdtempSync(join(tmpdir(), 'adstats-build-'));
		for (const path of ['src', 'commands', 'scripts/build.mjs', 'package.json']) {
			cpSync(join(root, path), join(copy, path), { recursive: true });
		}
		symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
	});
	after(() => rmSync(copy, { recursive: true, force: true }));

	const build = () => promisify(execFile)(process.execPath, [join(copy, 'scripts', 'build.mjs')]);
	const dist = (name = '') => join(copy, 'dist', name);
	const written = () => Object.fromEntries(readdirSync(dist()).map((name) => [name, statSync(dist(name)).mtimeMs]));

	it('runs on npm ci and before every npm start, which runs the bundle: no build step to remember', () => {
		const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		assert.equal(scripts.prepare, 'node scripts/build.mjs');
		assert.equal(scripts.prestart, 'node scripts/build.mjs');
		assert.equal(scripts.start, 'node dist/main.js');
	});

	it('writes nothing when the source is unchanged, and replaces the bundle when it changed, old chunks kept', async () => {
		await build();
		const first = written();
		assert.ok('main.js' in first && 'chart-worker.js' in first && 'inputs.json' in first);

		await build();
		assert.deepEqual(written(), first, 'an unchanged source writes no file: bots started from dist/ see no change');

		appendFileSync(join(copy, 'src', 'config.ts'), "\nexport const BUILD_MARKER = 'changed source';\n");
		await build();
		const second = written();
		const mainJs = readFileSync(dist('main.js'), 'utf8');
		const chunkOf = (text: string) => /from "\.\/(chunk-[A-Z0-9]+\.js)"/u.exec(text)?.[1];
		const newChunks = Object.keys(second).filter((name) => !(name in first));
		assert.ok(newChunks.some((name) => readFileSync(dist(name), 'utf8').includes('changed source')));
		assert.ok(chunkOf(mainJs) !== undefined && chunkOf(mainJs)! in second, 'main.js imports chunks that exist');
		for (const name of Object.keys(first)) {
			assert.ok(name in second, `${name} of the older build stays for a bot that started from it`);
		}
	});
});
