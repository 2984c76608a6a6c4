// `npm run web` as real processes: two of them on one Redis serve the same session (a load balancer may send
// each request to either), SIGTERM ends one with exit 0, and `npm start` refuses WEB_PORT with several bot
// processes in one line naming `npm run web`.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { freePort, runNode as run, startCommandArgs, waitForHealth } from '../app/bot-process.js';
import { usable, sharedStores } from '../discord/shared-stores.js';

const WEB_MAIN = fileURLToPath(new URL('../../src/app/web-main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** Cookies by name from a response, merged into `jar`. */
function keepCookies(response: Response, jar: Map<string, string>): void {
	for (const line of response.headers.getSetCookie()) {
		const [pair = ''] = line.split(';');
		const at = pair.indexOf('=');
		if (/max-age=0/iu.test(line)) jar.delete(pair.slice(0, at));
		else jar.set(pair.slice(0, at), pair.slice(at + 1));
	}
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

const redis = (await sharedStores()).find((store) => store.name === 'redis')!;

describe('npm run web processes', () => {
	let dir: string;
	let sandbox: DiscordSandbox;
	let baseEnv: Record<string, string>;

	before(async () => {
		dir = mkdtempSync(join(tmpdir(), 'adstats-web-processes-'));
		sandbox = await startDiscordSandbox({ guildCount: 1 });
		baseEnv = {
			DISCORD_TOKEN: sandbox.token,
			DISCORD_APPLICATION_ID: sandbox.applicationId,
			DISCORD_API_URL: sandbox.apiUrl,
			// Nothing here calls the stats endpoint: a port nobody listens on.
			STATS_API_BASE_URL: 'http://127.0.0.1:9',
			LINK_SECRET: randomBytes(32).toString('hex'),
			HISTORY_SAMPLING: 'off',
			DISCORD_CLIENT_SECRET: sandbox.clientSecret,
			DISCORD_OAUTH_URL: sandbox.oauthAuthorizeUrl,
		};
	});
	after(async () => {
		await sandbox.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('npm start refuses WEB_PORT with BOT_PROCESSES above 1, in one line naming npm run web', async () => {
		const bot = run(
			startCommandArgs(),
			{
				...baseEnv,
				STORE_URL: 'redis://127.0.0.1:6379',
				BOT_PROCESSES: '2',
				WEB_PORT: '8080',
				WEB_PUBLIC_URL: 'http://127.0.0.1:8080',
			},
			dir,
		);
		assert.equal(await bot.exited, 1);
		const lines = bot.output().stderr.trim().split('\n');
		assert.equal(lines.length, 1);
		assert.match(lines[0]!, /^Configuration error: .*BOT_PROCESSES=1.*npm run web/u);
	});

	if (usable(redis, 'two npm run web processes share sessions')) {
		it('two processes on one Redis serve the same session; SIGTERM exits 0', async () => {
			const userId = '340000000000000001';
			const [portA, portB] = [await freePort(), await freePort()];
			const publicUrl = `http://127.0.0.1:${portA}`;
			const env = { ...baseEnv, STORE_URL: redis.url, WEB_PUBLIC_URL: publicUrl };
			const a = run(['--import', TSX, WEB_MAIN], { ...env, WEB_PORT: String(portA) }, dir);
			const b = run(['--import', TSX, WEB_MAIN], { ...env, WEB_PORT: String(portB) }, dir);
			try {
				await waitForHealth(`http://127.0.0.1:${portA}`, a);
				await waitForHealth(`http://127.0.0.1:${portB}`, b);
				sandbox.setOAuthUser(userId, { username: 'shared', globalName: 'Shared Session' });
				const jar = new Map<string, string>();
				const login = await fetch(`${publicUrl}/login?next=/me`, { redirect: 'manual' });
				keepCookies(login, jar);
				const authorize = await fetch(login.headers.get('location')!, { redirect: 'manual' });
				const callback = await fetch(authorize.headers.get('location')!, {
					redirect: 'manual',
					headers: { cookie: cookieHeader(jar) },
				});
				assert.equal(callback.status, 302, 'process A logs the member in');
				keepCookies(callback, jar);
				assert.ok(jar.has('adstats_session'));

				const onB = await fetch(`http://127.0.0.1:${portB}/`, { headers: { cookie: cookieHeader(jar) } });
				assert.equal(onB.status, 200);
				assert.match(await onB.text(), /Logged in as Shared Session/u, 'process B knows the session');

				const session = jar.get('adstats_session')!;
				const logout = await fetch(`http://127.0.0.1:${portB}/logout`, {
					method: 'POST',
					redirect: 'manual',
					headers: { cookie: cookieHeader(jar), origin: publicUrl },
				});
				assert.equal(logout.status, 303, 'logged out on B');
				// The old id itself, as a copy of the cookie would send it: A must not open it either.
				const onA = await fetch(`${publicUrl}/me`, {
					redirect: 'manual',
					headers: { cookie: `adstats_session=${session}` },
				});
				assert.equal(onA.status, 302, 'and A no longer knows the session');

				a.child.kill('SIGTERM');
				assert.equal(await a.exited, 0);
			} finally {
				a.child.kill('SIGTERM');
				b.child.kill('SIGTERM');
				await Promise.all([a.exited, b.exited]);
			}
		});
	}
});
