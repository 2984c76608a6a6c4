import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Status } from 'discord.js';
import { checkShards, MAX_HEARTBEAT_AGE_MS } from '../../src/metrics/index.js';

const NOW = 1_800_000_000_000;

describe('checkShards', () => {
	it('is ok when every shard is ready with a recent heartbeat ACK', () => {
		const shards = [
			{ id: 0, status: Status.Ready, lastHeartbeatAckAt: NOW - 30_000 },
			{ id: 1, status: Status.Ready, lastHeartbeatAckAt: null },
		];
		assert.deepEqual(checkShards(shards, NOW), { ok: true, detail: '2 shards ready' });
	});

	it('names each shard that is not ready', () => {
		const shards = [
			{ id: 0, status: Status.Ready, lastHeartbeatAckAt: NOW },
			{ id: 1, status: Status.Reconnecting, lastHeartbeatAckAt: NOW },
			{ id: 2, status: Status.WaitingForGuilds, lastHeartbeatAckAt: -1 },
		];
		assert.deepEqual(checkShards(shards, NOW), {
			ok: false,
			detail: 'shard 1 reconnecting, shard 2 waiting_for_guilds',
		});
	});

	it('fails a ready shard whose heartbeats stopped being acknowledged', () => {
		const shards = [{ id: 0, status: Status.Ready, lastHeartbeatAckAt: NOW - MAX_HEARTBEAT_AGE_MS - 5000 }];
		assert.deepEqual(checkShards(shards, NOW), { ok: false, detail: 'shard 0 no heartbeat ACK for 105 s' });
	});

	it('is not ok without any shard', () => {
		assert.equal(checkShards([], NOW).ok, false);
	});
});
