// Two bot processes (real OS processes, test/privacy/left-server-process.ts) on one Redis, and on one PostgreSQL, run
// the left-servers job on an injected clock past SERVER_DATA_DAYS, racing on the same due marks: each server the bot
// was removed from is purged exactly once in total, no key or value of the store names it afterwards, and the
// servers not due, still holding the bot, or never left keep everything.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { markServerLeft } from '../../src/privacy/left-server-actions.js';
import { serverPurgeClaimKey } from '../../src/privacy/left-server-job.js';
import {
	startOutside,
	startStoreRun,
	storeTargets,
	type OpenedCore,
	type Outside,
	type StoreRun,
} from '../actions/store-runs.js';
import { usable } from '../discord/shared-stores.js';
import type { LeftProcessSetup } from './left-server-process.js';
import { eventually, giveServerRecords, hasServerRecords, markOf } from './left-server-support.js';

const PROCESS = new URL('./left-server-process.ts', import.meta.url).pathname;
const DAY_MS = 86_400_000;
// The children's clock. Far enough ahead that the real clock of the services' own jobs never finds a mark due.
const NOW = Date.now() + 431 * DAY_MS;
const DUE_LEFT_AT = NOW - 31 * DAY_MS;
const NOT_DUE_LEFT_AT = NOW - 10 * DAY_MS;
/** How long one process waits at a server for the other before it asks Discord alone. */
const RENDEZVOUS_MS = 2000;

interface ChildReport {
	claims: { key: string; won: boolean }[];
	purged: string[];
	lines: string[];
}

/**
 * Lets both processes ask Discord about a server at the same moment, so both reach its claim together: the race the
 * claim must settle, every time rather than by luck. A process left alone goes on after RENDEZVOUS_MS.
 */
function rendezvous() {
	const waiting = new Map<string, { children: ChildProcess[]; timer: NodeJS.Timeout }>();
	let together = 0;
	const release = (guildId: string) => {
		const entry = waiting.get(guildId);
		if (!entry) return;
		waiting.delete(guildId);
		clearTimeout(entry.timer);
		if (entry.children.length > 1) together += 1;
		for (const child of entry.children) if (child.connected) child.send({ proceed: guildId });
	};
	return {
		asking: (child: ChildProcess, guildId: string) => {
			const entry = waiting.get(guildId);
			if (!entry) {
				waiting.set(guildId, { children: [child], timer: setTimeout(() => release(guildId), RENDEZVOUS_MS) });
				return;
			}
			entry.children.push(child);
			release(guildId);
		},
		together: () => together,
	};
}

/** Forks a process, gives it the run's store and clock, and resolves once its services are open. */
async function startProcess(run: StoreRun, meeting: ReturnType<typeof rendezvous>) {
	const child = fork(PROCESS, [], { execArgv: ['--import', 'tsx'] });
	const report: ChildReport = { claims: [], purged: [], lines: [] };
	let ready = () => undefined as void;
	const opened = new Promise<void>((resolve) => (ready = resolve));
	const done = new Promise<void>((resolve, reject) => {
		child.on(
			'message',
			(message: {
				ready?: true;
				asking?: string;
				claim?: { key: string; won: boolean };
				purged?: string;
				done?: true;
				lines?: string[];
			}) => {
				if (message.ready) ready();
				if (message.asking) meeting.asking(child, message.asking);
				if (message.claim) report.claims.push(message.claim);
				if (message.purged) report.purged.push(message.purged);
				if (message.done) {
					report.lines = message.lines ?? [];
					resolve();
				}
			},
		);
		child.once('exit', (code, signal) => reject(new Error(`left-server process exited (${code ?? signal}) early`)));
	});
	done.catch(() => undefined);
	const setup: LeftProcessSetup = { env: run.env, namespacePrefix: run.namespacePrefix, now: NOW };
	child.send({ setup });
	await Promise.race([opened, done]);
	return { child, report, done };
}

async function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
	await once(child, 'exit');
	clearTimeout(timer);
}

for (const target of await storeTargets()) {
	if (target.name === 'sqlite') continue;
	const title = 'servers the bot left, purged by two processes';
	if (!usable(target, title)) continue;

	describe(`${title} on ${target.name}`, () => {
		let outside: Outside;
		let run: StoreRun;
		let parent: OpenedCore;
		const children: ChildProcess[] = [];

		before(async () => {
			outside = await startOutside({ guildCount: 8 });
			run = await startStoreRun(target, outside);
			parent = await run.open();
		});
		after(async () => {
			for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
			await run?.cleanup();
			await outside?.close();
		});

		it('purges each due server exactly once and leaves the others alone', { timeout: 60_000 }, async (t) => {
			const { ctx } = parent;
			const ids = outside.sandbox.guildIds;
			const due = ids.slice(0, 5);
			// Marked 10 days ago; back: marked, but Discord says the bot is in (a removal seen wrongly); stayed: never left.
			const [notDue, back, stayed] = ids.slice(5) as [string, string, string];
			for (const guildId of ids) await giveServerRecords(ctx, guildId);
			for (const guildId of due) {
				await markServerLeft({ ...ctx, now: () => DUE_LEFT_AT }, guildId, 'guildDelete');
				outside.sandbox.removeBotFromGuild(guildId);
			}
			const notDueMark = await markServerLeft({ ...ctx, now: () => NOT_DUE_LEFT_AT }, notDue, 'guildDelete');
			outside.sandbox.removeBotFromGuild(notDue);
			await markServerLeft({ ...ctx, now: () => DUE_LEFT_AT }, back, 'ready');

			const meeting = rendezvous();
			const pair = await Promise.all([0, 1].map(async () => startProcess(run, meeting)));
			children.push(...pair.map(({ child }) => child));
			const startAt = Date.now() + 300;
			for (const { child } of pair) child.send({ go: startAt });
			try {
				await eventually(
					async () => (await Promise.all([...due, back].map(async (id) => markOf(ctx, id)))).every((m) => m === null),
					'the due marks gone',
					30_000,
				);
			} finally {
				for (const { child } of pair) if (child.connected) child.send({ stop: true });
			}
			await Promise.all(pair.map(async ({ done }) => done));
			await Promise.all(pair.map(async ({ child }) => exited(child)));

			const reports = pair.map(({ report }) => report);
			t.diagnostic(`purges by process: ${reports.map((report) => report.purged.length).join(' + ')}`);
			const purged = reports.flatMap((report) => report.purged).sort();
			assert.deepEqual(purged, [...due].sort(), 'each due server purged once, by one process or the other');
			const lines = reports.flatMap((report) => report.lines.filter((line) => line.includes('server data purged')));
			for (const guildId of due)
				assert.equal(lines.filter((line) => line.includes(guildId)).length, 1, `one purge line for ${guildId}`);
			assert.equal(lines.length, due.length, lines.join('\n'));

			// Both processes raced for every due server's claim, and exactly one won it.
			const secret = ctx.config.linkSecret;
			for (const guildId of due) {
				const key = serverPurgeClaimKey(secret, guildId, DUE_LEFT_AT);
				const claims = reports.map((report) => report.claims.filter((claim) => claim.key === key));
				assert.equal(claims.flat().filter((claim) => claim.won).length, 1, `one claim won for ${guildId}`);
				assert.ok(
					claims.every((mine) => mine.length > 0),
					`both processes claimed ${guildId}: ${JSON.stringify(claims)}`,
				);
			}
			assert.ok(meeting.together() >= due.length, `met at ${meeting.together()} servers`);
			const dueKeys = new Set(due.map((id) => serverPurgeClaimKey(secret, id, DUE_LEFT_AT)));
			assert.deepEqual(
				reports
					.flatMap((report) => report.claims)
					.filter((claim) => claim.key.startsWith('server-purge:') && !dueKeys.has(claim.key)),
				[],
				`no purge claim on a server not to purge (${[notDue, back, stayed].join(', ')})`,
			);

			for (const guildId of due) {
				assert.equal(await markOf(ctx, guildId), null);
				assert.equal(await hasServerRecords(ctx, guildId), false, `${guildId} purged`);
			}
			assert.deepEqual(await markOf(ctx, notDue), notDueMark, 'the mark not due is kept as it was');
			for (const guildId of [notDue, back, stayed])
				assert.equal(await hasServerRecords(ctx, guildId), true, `${guildId} keeps its records`);
			assert.equal(await markOf(ctx, back), null, 'the bot is in: the mark is cleared');
			assert.equal(await markOf(ctx, stayed), null);

			const raw = await run.dumpRaw();
			for (const guildId of [notDue, back, stayed]) assert.ok(raw.includes(guildId), `the scan sees ${guildId}`);
			for (const guildId of due) assert.ok(!raw.includes(guildId), `no key or value names ${guildId}`);
		});
	});
}
