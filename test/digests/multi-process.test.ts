// A digest goes out once per member and week however many bot processes share the store, and a restart does not
// send it again: real child processes on one Redis, each checking every five minutes of the same injected clock.
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { createClient } from '@redis/client';
import type { DiscordSandbox } from '../../sandbox/index.js';
import { redisBackend, REDIS_URL } from '../links/backends.js';
import { manualClock, MEMBER, openSandbox } from './support.js';

const PROCESS = new URL('./digest-process.ts', import.meta.url).pathname;
const at = (iso: string) => Date.parse(iso);
const runPrefix = () => `dig${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;

type Outcome = { at: number; outcome: string };

/** Processes checking from `from` to `to` together; every outcome each one reported. */
async function runProcesses(
	sandbox: DiscordSandbox,
	prefix: string,
	count: number,
	from: number,
	to: number,
	mode = '',
): Promise<Outcome[][]> {
	const children = await Promise.all(
		Array.from({ length: count }, async () => {
			const args = [REDIS_URL, prefix, sandbox.apiUrl, sandbox.token, String(from), String(to), mode];
			const child = fork(PROCESS, args, { execArgv: ['--import', 'tsx'] });
			const outcomes = new Promise<Outcome[]>((resolve, reject) => {
				child.on('message', (message: { outcomes?: Outcome[] }) => {
					if (message.outcomes) resolve(message.outcomes);
				});
				child.once('exit', (code) => reject(new Error(`digest process exited with ${code} before reporting`)));
			});
			outcomes.catch(() => undefined);
			await once(child, 'message');
			return { child, outcomes };
		}),
	);
	for (const { child } of children) child.send({ start: true });
	try {
		return await Promise.all(children.map(async ({ outcomes }) => outcomes));
	} finally {
		for (const { child } of children) if (child.exitCode === null) child.kill();
	}
}

const redis = await redisBackend();

describe('digests in two processes on one Redis', () => {
	if (redis.unavailable) {
		if (process.env.CI === 'true') test('redis is reachable in CI', () => assert.fail(redis.unavailable ?? ''));
		else test('skipped', (t) => t.skip(redis.unavailable ?? ''));
		return;
	}
	let sandbox: DiscordSandbox;
	const prefix = runPrefix();
	before(async () => {
		sandbox = await openSandbox(manualClock(at('2027-03-21T12:00:00Z')));
	});
	after(async () => {
		await sandbox.close();
		const client = createClient({ url: REDIS_URL });
		await client.connect();
		const keys = await client.keys(`${prefix}*`);
		if (keys.length > 0) await client.del(keys);
		client.destroy();
	});

	test(
		'two processes send one digest a week, and a restart later that week sends none',
		{ timeout: 300_000 },
		async () => {
			// One process turns it on (as /digest on would in any process), then both check Monday's hours together.
			const first = await runProcesses(
				sandbox,
				prefix,
				2,
				at('2027-03-22T07:00:00Z'),
				at('2027-03-22T09:00:00Z'),
				'turn-on',
			);
			const sent = first.flat().filter((o) => o.outcome === 'sent');
			assert.equal(sent.length, 1, JSON.stringify(first));
			assert.equal(sandbox.directMessages(MEMBER).length, 1);
			// Both restarted the same afternoon, then checking through the rest of the week: nothing more.
			const again = await runProcesses(sandbox, prefix, 2, at('2027-03-22T09:00:00Z'), at('2027-03-22T12:00:00Z'));
			assert.deepEqual(again.flat(), []);
			assert.equal(sandbox.directMessages(MEMBER).length, 1);
			// The next week's goes out once more, at 09:00 Berlin time (07:00 UTC in summer time).
			const next = await runProcesses(sandbox, prefix, 2, at('2027-03-29T06:00:00Z'), at('2027-03-29T08:00:00Z'));
			const nextSent = next.flat().filter((o) => o.outcome === 'sent');
			assert.equal(nextSent.length, 1, JSON.stringify(next));
			assert.equal(new Date(nextSent[0]!.at).getUTCHours(), 7);
			assert.equal(sandbox.directMessages(MEMBER).length, 2);
		},
	);
});
