// A store that accepts connections and never answers must not keep a member waiting or the bot
// alive: the member reads "storage unavailable" within 8 s, and SIGTERM ends the process within 15 s.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { translator } from '../../src/i18n/index.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { sharedStores, uniqueSnowflake, usable } from '../discord/shared-stores.js';
import { startTcpProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { registerBotCommands } from './harness.js';
import { startCommandArgs } from './bot-process.js';

const en = translator('en-US');

for (const store of await sharedStores()) {
	if (!usable(store, 'SIGTERM with a frozen store')) continue;

	describe(`the bot process with a frozen ${store.name} store`, () => {
		let dir: string;
		let sandbox: DiscordSandbox;
		let proxy: TcpProxy;
		before(async () => {
			dir = mkdtempSync(join(tmpdir(), 'adstats-frozen-'));
			sandbox = await startDiscordSandbox({ guildCount: 1 });
			proxy = await startTcpProxy(store.url);
			await registerBotCommands(sandbox);
		});
		after(async () => {
			await proxy.close();
			await sandbox.close();
			rmSync(dir, { recursive: true, force: true });
		});

		it('answers "storage unavailable" within 8 s and exits within 15 s of SIGTERM', { timeout: 90_000 }, async () => {
			const child = spawn(process.execPath, startCommandArgs(), {
				cwd: dir,
				env: {
					PATH: process.env.PATH ?? '',
					DISCORD_TOKEN: sandbox.token,
					DISCORD_API_URL: sandbox.apiUrl,
					STATS_API_BASE_URL: 'http://127.0.0.1:9',
					STORE_URL: proxy.url,
					LINK_SECRET: randomBytes(32).toString('hex'),
					CHART_RENDERER: 'none',
					HISTORY_SAMPLING: 'off',
					STATS_COOLDOWN_SECONDS: '0',
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			let running = true;
			let stdout = '';
			child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
			const exited = new Promise<number | null>((resolve) =>
				child.on('exit', (code) => {
					running = false;
					resolve(code);
				}),
			);
			try {
				const readyBy = Date.now() + 30_000;
				while (!stdout.includes('"msg":"bot ready"') && running && Date.now() < readyBy) {
					await new Promise((resolve) => setTimeout(resolve, 50));
				}
				assert.ok(stdout.includes('"msg":"bot ready"'), 'the bot started');

				await proxy.setMode('black-hole');
				const asked = Date.now();
				const message = await sandbox
					.dispatchCommand({ name: 'stats', userId: uniqueSnowflake('35') })
					.finalMessage(10_000);
				// The bot's error lines (pino level 50) say what failed instead, should another answer come.
				const errors = stdout.split('\n').filter((line) => line.includes('"level":50'));
				assert.equal(message.content, en('errors.storage'), errors.join('\n'));
				assert.ok(Date.now() - asked < 8000, `answered after ${Date.now() - asked} ms`);

				const signalled = Date.now();
				child.kill('SIGTERM');
				const code = await Promise.race([
					exited,
					new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 15_000)),
				]);
				assert.notEqual(code, 'late', 'still running 15 s after SIGTERM');
				assert.ok(Date.now() - signalled < 15_000);
			} finally {
				if (running) child.kill('SIGKILL');
				await proxy.setMode('pass');
			}
		});
	});
}
