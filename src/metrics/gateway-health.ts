import { SHARD_STATUSES, type ShardStatus } from './labels.js';

/** Plain data about one gateway shard, read from discord.js (`shard.status`, `shard.lastPingTimestamp`). */
export interface ShardState {
	id: number;
	status: ShardStatus;
	/** Epoch ms of the last heartbeat Discord acknowledged; null (or -1 from discord.js) before the first one. */
	lastHeartbeatAckAt: number | null;
}

// Discord asks for a heartbeat about every 41 s; two missed in a row means the connection is a zombie
// even while discord.js still says Ready.
export const MAX_HEARTBEAT_AGE_MS = 100_000;

/** A readiness probe result: ok when there is a shard and every shard is Ready with a recent heartbeat ACK. */
export function checkShards(
	shards: readonly ShardState[],
	now = Date.now(),
	maxHeartbeatAgeMs = MAX_HEARTBEAT_AGE_MS,
): { ok: boolean; detail: string } {
	if (shards.length === 0) return { ok: false, detail: 'no gateway shard' };
	const problems: string[] = [];
	for (const shard of shards) {
		const status = SHARD_STATUSES[shard.status] ?? 'unknown';
		if (status !== 'ready') {
			problems.push(`shard ${shard.id} ${status}`);
			continue;
		}
		const ackAt = shard.lastHeartbeatAckAt;
		if (ackAt !== null && ackAt >= 0 && now - ackAt > maxHeartbeatAgeMs) {
			problems.push(`shard ${shard.id} no heartbeat ACK for ${Math.round((now - ackAt) / 1000)} s`);
		}
	}
	if (problems.length > 0) return { ok: false, detail: problems.join(', ') };
	return { ok: true, detail: shards.length === 1 ? '1 shard ready' : `${shards.length} shards ready` };
}
