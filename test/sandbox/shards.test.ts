import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { Client, GatewayIntentBits, MessageFlags } from 'discord.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import type { DiscordSandbox } from '../../sandbox/index.js';
import { connectRawSession, replyRaw, waitUntil } from './raw-gateway.js';

// GUILD_CREATE stays small where only routing is under test.
const SMALL_GUILDS = { channelsPerGuild: 1, rolesPerGuild: 1, membersPerGuild: 1 };

async function gatewayBot(
	sandbox: DiscordSandbox,
): Promise<{ shards: number; session_start_limit: Record<string, number> }> {
	const response = await fetch(`${sandbox.apiUrl}/v10/gateway/bot`, {
		headers: { authorization: `Bot ${sandbox.token}` },
	});
	return (await response.json()) as { shards: number; session_start_limit: Record<string, number> };
}

test('GET /gateway/bot recommends one shard per 1,000 guilds (at least 1), or the configured count', async (t) => {
	const cases: [Parameters<typeof startDiscordSandbox>[0], number][] = [
		[{ guildCount: 1 }, 1],
		[{ guildCount: 1000 }, 1],
		[{ guildCount: 2500 }, 3],
		[{ guildCount: 3, recommendedShards: 4 }, 4],
	];
	for (const [options, expected] of cases) {
		const sandbox = await startDiscordSandbox({ ...options, ...SMALL_GUILDS });
		t.after(() => sandbox.close());
		const body = await gatewayBot(sandbox);
		assert.equal(body.shards, expected, JSON.stringify(options));
		assert.equal(sandbox.recommendedShards, expected);
		assert.ok(body.session_start_limit.max_concurrency! >= expected, 'all shards may identify at once');
	}
});

test('10,000 guilds over 4 shards: each session gets exactly its guilds by the formula, and starts fast', async (t) => {
	globalThis.gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	const startedAt = performance.now();
	const sandbox = await startDiscordSandbox({ guildCount: 10_000, ...SMALL_GUILDS });
	const startMs = performance.now() - startedAt;
	globalThis.gc?.();
	const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
	t.after(() => sandbox.close());
	assert.equal(sandbox.recommendedShards, 10);
	const sessions = [0, 1, 2, 3].map((id) => connectRawSession(sandbox, [id, 4]));
	t.after(() => sessions.forEach((session) => session.close()));
	await Promise.all(sessions.map((session) => session.ready));
	await sandbox.waitForShards(4);
	const readyMs = performance.now() - startedAt;
	const seen = new Set<string>();
	sessions.forEach((session, id) => {
		assert.equal(session.readyGuildIds.length, 2500, `shard ${id} holds a quarter of the guilds`);
		for (const guildId of session.readyGuildIds) {
			assert.equal(Number((BigInt(guildId) >> 22n) % 4n), id, `guild ${guildId} belongs to shard ${id}`);
			assert.ok(!seen.has(guildId), 'no guild is on two shards');
			seen.add(guildId);
		}
	});
	assert.equal(seen.size, 10_000);
	await waitUntil(() => sessions.every((session) => session.guildCreateIds.length === 2500), 20_000, 'GUILD_CREATEs');
	assert.deepEqual(sessions[2]!.guildCreateIds, sessions[2]!.readyGuildIds);
	assert.deepEqual(
		sandbox
			.gatewaySessions()
			.map((s) => `${s.shardId}/${s.shardCount}:${s.connected}:${s.guildCount}`)
			.sort(),
		['0/4:true:2500', '1/4:true:2500', '2/4:true:2500', '3/4:true:2500'],
	);
	t.diagnostic(
		`stand-in started in ${startMs.toFixed(0)} ms (heap +${heapMiB.toFixed(1)} MiB), 4 shards ready after ${readyMs.toFixed(0)} ms`,
	);
	assert.ok(startMs < 5000, `10,000 guilds should not take ${startMs.toFixed(0)} ms to set up`);
	if (globalThis.gc) assert.ok(heapMiB < 20, `the stand-in holds ${heapMiB.toFixed(1)} MiB for 10,000 guilds`);
});

test('a session that would hold more than 2,500 guilds is closed with 4011; a bad shard with 4010', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 2501, ...SMALL_GUILDS });
	t.after(() => sandbox.close());
	const unsharded = connectRawSession(sandbox, [0, 1]);
	await assert.rejects(unsharded.ready, { code: 4011 });
	const invalid = connectRawSession(sandbox, [2, 2]);
	await assert.rejects(invalid.ready, { code: 4010 });
	const halves = [connectRawSession(sandbox, [0, 2]), connectRawSession(sandbox, [1, 2])];
	t.after(() => halves.forEach((session) => session.close()));
	const counts = (await Promise.all(halves.map((session) => session.ready))).map((d) => (d.guilds as []).length);
	assert.deepEqual(counts.sort(), [1250, 1251]);
	assert.equal(sandbox.identifyCount, 2);
});

test('each interaction goes to exactly the session owning its guild; DMs go to shard 0', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 8, ...SMALL_GUILDS });
	t.after(() => sandbox.close());
	const sessions = [0, 1, 2, 3].map((id) => connectRawSession(sandbox, [id, 4]));
	t.after(() => sessions.forEach((session) => session.close()));
	await sandbox.waitForShards(4);
	for (const guildId of sandbox.guildIds) {
		const handle = sandbox.dispatchCommand({ name: 'stats', guildId });
		const owner = sandbox.shardOf(guildId, 4);
		assert.deepEqual(
			handle.deliveredTo.map((d) => (d.via === 'gateway' ? d.shardId : -1)),
			[owner],
		);
		await waitUntil(() => sessions[owner]!.interactions.some((i) => i.id === handle.id));
		assert.equal(await replyRaw(sandbox, sessions[owner]!.interactions.at(-1)!, 'ok'), 204);
		assert.equal(handle.callbackAttempts, 1);
	}
	const dm = sandbox.dispatchCommand({ name: 'stats', guildId: null });
	await waitUntil(() => sessions[0]!.interactions.some((i) => i.id === dm.id));
	assert.deepEqual(
		sessions.map((session) => session.interactions.length),
		[3, 2, 2, 2],
		'2 guilds per shard, and the DM on shard 0',
	);
});

test('two sessions on the same shard both get the interaction, so a double answer shows as 40060', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 2, ...SMALL_GUILDS });
	t.after(() => sandbox.close());
	const first = connectRawSession(sandbox, [0, 1]);
	const second = connectRawSession(sandbox, [0, 1]);
	t.after(() => [first, second].forEach((session) => session.close()));
	await Promise.all([first.ready, second.ready]);
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	assert.equal(handle.deliveredTo.length, 2);
	await waitUntil(() => first.interactions.length === 1 && second.interactions.length === 1);
	assert.equal(await replyRaw(sandbox, first.interactions[0]!, 'one'), 204);
	assert.equal(await replyRaw(sandbox, second.interactions[0]!, 'two'), 400);
	assert.equal(handle.callbackAttempts, 2);
	assert.equal(handle.callbacks[1]?.errorCode, 40060);
	assert.equal(sandbox.dispatchedInteractions.filter((h) => h.callbackAttempts > 1).length, 1);
});

test('a killed session stays resumable until a new IDENTIFY of its shard replaces it', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 4, ...SMALL_GUILDS });
	t.after(() => sandbox.close());
	const [zero, one] = [connectRawSession(sandbox, [0, 2]), connectRawSession(sandbox, [1, 2])];
	t.after(() => [zero, one].forEach((session) => session.close()));
	await sandbox.waitForShards(2);
	one.kill();
	await waitUntil(() => sandbox.gatewaySessions().some((s) => s.shardId === 1 && !s.connected), 2000, 'shard 1 away');
	const guildOfOne = sandbox.guildIds.find((id) => sandbox.shardOf(id, 2) === 1)!;
	const whileAway = sandbox.dispatchCommand({ name: 'stats', guildId: guildOfOne });
	assert.deepEqual(
		whileAway.deliveredTo.map((d) => d.via === 'gateway' && d.connected),
		[false],
		'kept for a RESUME',
	);
	const respawned = connectRawSession(sandbox, [1, 2]);
	t.after(() => respawned.close());
	await sandbox.waitForShards(2);
	assert.equal(sandbox.gatewaySessions().length, 2, 'the dead session was replaced');
	const handle = sandbox.dispatchCommand({ name: 'stats', guildId: guildOfOne });
	assert.equal(handle.deliveredTo.length, 1);
	await waitUntil(() => respawned.interactions.length === 1);
	assert.equal(await replyRaw(sandbox, respawned.interactions[0]!, 'back'), 204);
	assert.equal(handle.callbackAttempts, 1);
});

test('a closed session stops receiving; a new IDENTIFY of the shard takes over', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 2, ...SMALL_GUILDS });
	t.after(() => sandbox.close());
	const before = connectRawSession(sandbox, [0, 1]);
	await before.ready;
	before.close();
	await before.closed;
	await waitUntil(() => sandbox.gatewaySessions().length === 0, 2000, 'the session ending');
	const after = connectRawSession(sandbox, [0, 1]);
	t.after(() => after.close());
	await after.ready;
	const handle = sandbox.dispatchCommand({ name: 'stats' });
	assert.equal(handle.deliveredTo.length, 1);
	await waitUntil(() => after.interactions.length === 1);
	assert.equal(before.interactions.length, 0);
});

test('discord.js with shards "auto" follows the recommendation and answers from every shard exactly once', async (t) => {
	const sandbox = await startDiscordSandbox({ guildCount: 6, recommendedShards: 3, heartbeatIntervalMs: 1000 });
	t.after(() => sandbox.close());
	const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl }, shards: 'auto' });
	t.after(() => client.destroy());
	client.on('interactionCreate', (interaction) => {
		if (!interaction.isChatInputCommand()) return;
		void interaction.reply({ content: `shard ${interaction.guild?.shardId}`, flags: MessageFlags.Ephemeral });
	});
	const ready = once(client, 'clientReady');
	await client.login(sandbox.token);
	await ready;
	await sandbox.waitForShards(3);
	assert.equal(client.guilds.cache.size, 6);
	for (const guildId of sandbox.guildIds) {
		const message = await sandbox.dispatchCommand({ name: 'stats', guildId }).finalMessage();
		assert.equal(message.content, `shard ${sandbox.shardOf(guildId)}`);
	}
	assert.ok(sandbox.dispatchedInteractions.every((handle) => handle.callbackAttempts === 1));
	const identifies = sandbox.identifyCount;
	sandbox.dropConnection(4000, 1);
	await sandbox.waitForResume();
	assert.equal(sandbox.identifyCount, identifies, 'shard 1 resumed');
	const guildOfOne = sandbox.guildIds.find((id) => sandbox.shardOf(id) === 1)!;
	assert.equal(
		(await sandbox.dispatchCommand({ name: 'stats', guildId: guildOfOne }).finalMessage()).content,
		'shard 1',
	);
	sandbox.assertNoViolations();
});
