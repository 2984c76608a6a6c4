// Servers the bot leaves, with the real bot on the Discord stand-in and a real SQLite store: a removal marks the
// server, an outage does not; SERVER_DATA_DAYS=0 purges it at once, leaving no byte that names it; the bot added
// back keeps everything; Discord answering 200 clears a mark without a purge; a server missing from its shard's
// READY after a restart is marked (only by its own shard); in HTTP interactions mode a server missing from Discord's
// list of the bot's servers is; a restart between the mark and the purge still purges.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { leftServerJobDeps } from '../../src/app/left-servers.js';
import { leftServerJob, settleLeftServer } from '../../src/privacy/left-server-job.js';
import { markServerLeft } from '../../src/privacy/left-server-actions.js';
import {
	eventually,
	giveServerRecords,
	hasServerRecords,
	markOf,
	startLeftWorld,
	storeBytes,
	type LeftWorld,
} from './left-server-support.js';

const DAY_MS = 86_400_000;
const wait = async (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('servers the bot leaves', () => {
	const worlds: LeftWorld[] = [];
	const world = async (options?: Parameters<typeof startLeftWorld>[0]) => {
		const started = await startLeftWorld(options);
		worlds.push(started);
		return started;
	};
	after(async () => {
		for (const started of worlds) await started.close();
	});

	it('marks a server on GUILD_DELETE without unavailable, never on an outage', async () => {
		const w = await world();
		const bot = await w.start();
		const [kept, removed] = w.sandbox.guildIds as [string, string];
		await giveServerRecords(bot.ctx, kept);
		await giveServerRecords(bot.ctx, removed);

		w.sandbox.guildOutage(kept);
		w.sandbox.removeBotFromGuild(removed);
		await eventually(async () => (await markOf(bot.ctx, removed)) !== null, 'the removed server marked');
		const mark = await markOf(bot.ctx, removed);
		assert.equal(mark?.seenBy, 'guildDelete');
		assert.ok(Math.abs((mark?.leftAt ?? 0) - Date.now()) < 10_000);
		await wait(300);
		assert.equal(await markOf(bot.ctx, kept), null, 'an outage is no removal');
		// SERVER_DATA_DAYS (30 by default) has not passed: everything stays.
		assert.ok(await hasServerRecords(bot.ctx, removed));
		assert.ok(await hasServerRecords(bot.ctx, kept));
		assert.ok(w.logs.some((line) => line.includes('server marked left') && line.includes(removed)));
	});

	it('with SERVER_DATA_DAYS=0 purges the server within the run, leaving no byte that names it', async () => {
		const w = await world();
		const bot = await w.start({ SERVER_DATA_DAYS: '0' });
		const [kept, removed] = w.sandbox.guildIds as [string, string];
		await giveServerRecords(bot.ctx, kept);
		await giveServerRecords(bot.ctx, removed);

		w.sandbox.removeBotFromGuild(removed);
		await eventually(async () => !(await hasServerRecords(bot.ctx, removed)), 'the purge');
		await eventually(async () => (await markOf(bot.ctx, removed)) === null, 'the mark gone');
		assert.ok(await hasServerRecords(bot.ctx, kept), "another server's records stay");
		const purged = w.logs.find((line) => line.includes('server data purged'));
		assert.ok(purged?.includes(removed));
		await w.stop();
		const bytes = storeBytes(w.dir);
		assert.ok(bytes.includes(kept), 'the scan reads the store');
		assert.ok(!bytes.includes(removed), 'no key or value names the purged server');
	});

	it('with SERVER_DATA_DAYS=0, a server added back and removed again minutes later is purged again at once', async () => {
		const w = await world();
		const bot = await w.start({ SERVER_DATA_DAYS: '0' });
		const guildId = w.sandbox.guildIds[0]!;
		await giveServerRecords(bot.ctx, guildId);
		w.sandbox.removeBotFromGuild(guildId);
		await eventually(async () => !(await hasServerRecords(bot.ctx, guildId)), 'the first purge');
		w.sandbox.addBotToGuild(guildId);
		await giveServerRecords(bot.ctx, guildId);
		// Within the first purge's claim (10 minutes): the second removal has its own.
		w.sandbox.removeBotFromGuild(guildId);
		await eventually(async () => !(await hasServerRecords(bot.ctx, guildId)), 'the second purge');
		await eventually(async () => (await markOf(bot.ctx, guildId)) === null, 'the mark gone');
		assert.equal(w.logs.filter((line) => line.includes('server data purged')).length, 2);
	});

	it('keeps everything and clears the mark when the bot is added back before the purge', async () => {
		const w = await world();
		const bot = await w.start();
		const guildId = w.sandbox.guildIds[0]!;
		await giveServerRecords(bot.ctx, guildId);
		w.sandbox.removeBotFromGuild(guildId);
		await eventually(async () => (await markOf(bot.ctx, guildId)) !== null, 'the mark');
		w.sandbox.addBotToGuild(guildId);
		await eventually(async () => (await markOf(bot.ctx, guildId)) === null, 'the mark cleared');
		assert.ok(await hasServerRecords(bot.ctx, guildId));
		assert.ok(w.logs.some((line) => line.includes('left mark cleared')));
	});

	it('clears a due mark without purging when GET /guilds/{id} answers 200', async () => {
		const w = await world();
		const bot = await w.start();
		const guildId = w.sandbox.guildIds[0]!;
		await giveServerRecords(bot.ctx, guildId);
		// A removal the bot believed in while it is in fact still there (a mark from an old READY, say).
		const mark = await markServerLeft(bot.ctx, guildId, 'ready');
		const later = () => Date.now() + 31 * DAY_MS;
		assert.equal(await settleLeftServer(leftServerJobDeps(bot.ctx, later), mark), 'back');
		assert.equal(await markOf(bot.ctx, guildId), null);
		assert.ok(await hasServerRecords(bot.ctx, guildId));
	});

	it('leaves a due mark for later when Discord cannot say, and purges on 403 as on 10004', async () => {
		const w = await world();
		const bot = await w.start();
		const guildId = w.sandbox.guildIds[1]!;
		await giveServerRecords(bot.ctx, guildId);
		const mark = await markServerLeft(bot.ctx, guildId, 'guildDelete');
		const later = () => Date.now() + 31 * DAY_MS;
		const unreachable = { ...leftServerJobDeps(bot.ctx, later), presence: async () => 'unknown' as const };
		assert.equal(await settleLeftServer(unreachable, mark), 'postponed');
		assert.ok(await hasServerRecords(bot.ctx, guildId));
		assert.equal(await settleLeftServer(leftServerJobDeps(bot.ctx, Date.now), mark), 'notDue');
		w.sandbox.removeBotFromGuild(guildId, { answer: 403 });
		assert.equal(await settleLeftServer(leftServerJobDeps(bot.ctx, later), mark), 'purged');
		assert.equal(await hasServerRecords(bot.ctx, guildId), false);
		assert.equal(await markOf(bot.ctx, guildId), null);
	});

	it("marks a server missing from its shard's READY after a restart, only by its own shard (2 shards)", async () => {
		const w = await world({ guildCount: 4, recommendedShards: 2 });
		// Two guilds on each shard (consecutive ids alternate): g0 and g2 on shard 0, g1 and g3 on shard 1.
		const onShard = (shard: number) => w.sandbox.guildIds.filter((id) => w.sandbox.shardOf(id, 2) === shard);
		const [g0, g2] = onShard(0) as [string, string];
		const [g1, g3] = onShard(1) as [string, string];
		const first = await w.start({ SHARD_COUNT: '2' });
		for (const id of [g0, g1, g2, g3]) await giveServerRecords(first.ctx, id);
		await w.stop();
		// Removed from one guild of each shard while the bot was down.
		w.sandbox.removeBotFromGuild(g2);
		w.sandbox.removeBotFromGuild(g3);

		// Shard 0 alone: it judges g0 and g2 only; g1 and g3 are missing from its READY by design.
		const shard0 = await w.start({ SHARD_COUNT: '2' }, { shards: { ids: [0], total: 2 } });
		await eventually(async () => (await markOf(shard0.ctx, g2)) !== null, 'g2 marked by shard 0');
		await wait(300);
		assert.equal((await markOf(shard0.ctx, g2))?.seenBy, 'ready');
		assert.equal(await markOf(shard0.ctx, g0), null);
		assert.equal(await markOf(shard0.ctx, g1), null, "shard 0 never judges shard 1's guilds");
		assert.equal(await markOf(shard0.ctx, g3), null, "shard 0 never judges shard 1's guilds");
		await w.stop();

		// Both shards: g3 is marked by shard 1; g2 added back meanwhile is cleared by READY listing it.
		w.sandbox.addBotToGuild(g2);
		const both = await w.start({ SHARD_COUNT: '2' });
		await eventually(async () => (await markOf(both.ctx, g3)) !== null, 'g3 marked by shard 1');
		await eventually(async () => (await markOf(both.ctx, g2)) === null, 'g2 back in READY');
		assert.equal(await markOf(both.ctx, g1), null);
		for (const id of [g0, g1, g2, g3]) assert.ok(await hasServerRecords(both.ctx, id));
	});

	it("in HTTP interactions mode (no gateway) marks a server missing from Discord's list of the bot's servers", async () => {
		// 203 servers: the list comes in two pages of Discord's 200, and a server on the second page is judged too.
		const w = await world({ guildCount: 203 });
		const http = { INTERACTIONS_PORT: '0', DISCORD_PUBLIC_KEY: w.sandbox.publicKeyHex };
		const sorted = [...w.sandbox.guildIds].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
		const [kept, removed, back] = [sorted[0]!, sorted.at(-1)!, sorted[1]!];
		const first = await w.start(http);
		assert.equal(first.client, null, 'no gateway in HTTP interactions mode');
		for (const id of [kept, removed, back]) await giveServerRecords(first.ctx, id);
		// A stale mark of a server the bot is in: the list clears it.
		await markServerLeft(first.ctx, back, 'guildDelete');
		await w.stop();
		w.sandbox.removeBotFromGuild(removed);

		const bot = await w.start(http);
		await eventually(async () => (await markOf(bot.ctx, removed)) !== null, 'the removed server marked at start-up');
		assert.equal((await markOf(bot.ctx, removed))?.seenBy, 'guildList');
		await eventually(async () => (await markOf(bot.ctx, back)) === null, 'the listed server cleared');
		assert.equal(await markOf(bot.ctx, kept), null);
		for (const id of [kept, removed, back])
			assert.ok(await hasServerRecords(bot.ctx, id), 'nothing purged before its days');
		assert.ok(w.logs.some((line) => line.includes('left servers checked against the server list')));
	});

	it('in HTTP interactions mode a failing list marks nothing, and SERVER_DATA_DAYS=0 purges what it marks', async () => {
		const w = await world();
		const [kept, removed] = w.sandbox.guildIds as [string, string];
		const bot = await w.start({
			INTERACTIONS_PORT: '0',
			DISCORD_PUBLIC_KEY: w.sandbox.publicKeyHex,
			SERVER_DATA_DAYS: '0',
		});
		// The bot's own job lists the servers at its first turn: done before the removal, it judges nothing here.
		await eventually(
			async () => w.logs.some((line) => line.includes('left servers checked against the server list')),
			"the job's first list",
		);
		for (const id of [kept, removed]) await giveServerRecords(bot.ctx, id);
		w.sandbox.removeBotFromGuild(removed);
		const turn = { item: undefined, round: 0, dueAt: 0, latenessMs: 0, stopping: false, sleep: async () => {} };

		// Discord fails a page: a partial list would name servers the bot is in, so nothing is judged.
		const real = leftServerJobDeps(bot.ctx, Date.now);
		let failing = true;
		const job = leftServerJob({
			...real,
			listGuilds: async () => (failing ? Promise.reject(new Error('503 on page 2')) : real.listGuilds!()),
		});
		await job.turn(turn);
		assert.equal(await markOf(bot.ctx, removed), null, 'no list, no judgement');
		assert.ok(await hasServerRecords(bot.ctx, removed));
		assert.ok(w.logs.some((line) => line.includes('the list of servers did not come')));

		// The next turn (a minute later, not the next 6 hours) lists again: marked, confirmed out by
		// GET /guilds/{id}, purged in the same turn.
		failing = false;
		await job.turn(turn);
		assert.equal(await hasServerRecords(bot.ctx, removed), false);
		assert.equal(await markOf(bot.ctx, removed), null);
		assert.ok(await hasServerRecords(bot.ctx, kept));
	});

	it('purges after a restart between the mark and the purge (the mark is stored)', async () => {
		const w = await world();
		const bot = await w.start();
		const [kept, guildId] = w.sandbox.guildIds as [string, string];
		await giveServerRecords(bot.ctx, kept);
		await giveServerRecords(bot.ctx, guildId);
		w.sandbox.removeBotFromGuild(guildId);
		await eventually(async () => (await markOf(bot.ctx, guildId)) !== null, 'the mark');
		await w.stop();
		// Restarted with no waiting period left: the job's first turn, at start, purges.
		const again = await w.start({ SERVER_DATA_DAYS: '0' });
		await eventually(async () => !(await hasServerRecords(again.ctx, guildId)), 'the purge after the restart');
		await eventually(async () => (await markOf(again.ctx, guildId)) === null, 'the mark gone');
		assert.ok(await hasServerRecords(again.ctx, kept), 'the server the bot is in keeps its records');
	});
});
