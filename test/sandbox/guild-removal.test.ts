// The stand-in's removal of the bot from a guild, an outage, and the bot added back: what the gateway sends (to the
// owning shard only), what GET /guilds/{id} answers, and what the next READY lists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { connectRawSession, type RawSession } from './raw-gateway.js';

const getGuild = async (sandbox: DiscordSandbox, guildId: string) => {
	const response = await fetch(`${sandbox.apiUrl}/v10/guilds/${guildId}`, {
		headers: { authorization: `Bot ${sandbox.token}` },
	});
	return { status: response.status, body: (await response.json()) as { code?: number; id?: string } };
};

const until = async (check: () => boolean, what: string) => {
	const deadline = Date.now() + 5000;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
};

describe('the bot removed from a guild on the stand-in', () => {
	let sandbox: DiscordSandbox;
	let shards: [RawSession, RawSession];
	/** Two guilds on each shard (consecutive ids alternate): g0 and g2 on shard 0, g1 and g3 on shard 1. */
	let g0: string, g1: string, g2: string, g3: string;
	before(async () => {
		sandbox = await startDiscordSandbox({ guildCount: 4, recommendedShards: 2 });
		const onShard = (shard: number) => sandbox.guildIds.filter((id) => sandbox.shardOf(id, 2) === shard);
		[g0, g2] = onShard(0) as [string, string];
		[g1, g3] = onShard(1) as [string, string];
		shards = [connectRawSession(sandbox, [0, 2]), connectRawSession(sandbox, [1, 2])];
		await Promise.all(shards.map(async (session) => session.ready));
	});
	after(async () => {
		for (const session of shards) session.close();
		await sandbox.close();
	});

	it('sends GUILD_DELETE without unavailable to the owning shard, then answers 404 10004 or 403', async () => {
		sandbox.removeBotFromGuild(g1);
		await until(() => shards[1].dispatches.some((event) => event.t === 'GUILD_DELETE'), 'GUILD_DELETE on shard 1');
		assert.deepEqual(shards[1].dispatches.at(-1), { t: 'GUILD_DELETE', d: { id: g1 } });
		assert.ok(!shards[0].dispatches.some((event) => event.t === 'GUILD_DELETE'), 'shard 0 does not own it');
		assert.deepEqual(await getGuild(sandbox, g1), { status: 404, body: { message: 'Unknown Guild', code: 10004 } });
		assert.equal(sandbox.botInGuild(g1), false);

		sandbox.removeBotFromGuild(g0, { answer: 403 });
		assert.deepEqual(await getGuild(sandbox, g0), { status: 403, body: { message: 'Missing Access', code: 50001 } });
	});

	it('leaves a removed guild out of READY, and lists it again once the bot is added back (GUILD_CREATE)', async () => {
		const again = connectRawSession(sandbox, [0, 2]);
		try {
			await again.ready;
			assert.deepEqual(again.readyGuildIds, [g2], 'g0 was removed; g1 and g3 are shard 1');
			sandbox.addBotToGuild(g0);
			await until(() => again.guildCreateIds.includes(g0), 'GUILD_CREATE');
			assert.equal((await getGuild(sandbox, g0)).status, 200);
			assert.equal(sandbox.botInGuild(g0), true);
		} finally {
			again.close();
		}
		const later = connectRawSession(sandbox, [0, 2]);
		try {
			await later.ready;
			assert.deepEqual(later.readyGuildIds, [g0, g2]);
		} finally {
			later.close();
		}
		assert.equal(sandbox.botInGuild(g1), false);
	});

	it('sends an outage as GUILD_DELETE with unavailable: true; the guild still answers', async () => {
		sandbox.guildOutage(g3);
		await until(() => shards[1].dispatches.some((event) => event.d.unavailable === true), 'the outage');
		assert.deepEqual(shards[1].dispatches.at(-1), { t: 'GUILD_DELETE', d: { id: g3, unavailable: true } });
		assert.equal((await getGuild(sandbox, g3)).status, 200);
	});
});
