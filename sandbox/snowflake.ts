const DISCORD_EPOCH = 1420070400000n;

let lastMs = 0n;
let increment = 0n;

/**
 * A fresh, unique Discord snowflake whose timestamp is about now (discord.js reads createdAt from it).
 * When more than 4096 ids are taken in one millisecond the timestamp runs slightly ahead instead of repeating.
 */
export function nextSnowflake(): string {
	const now = BigInt(Date.now()) - DISCORD_EPOCH;
	if (now > lastMs) {
		lastMs = now;
		increment = 0n;
	} else if (++increment > 0xfffn) {
		lastMs += 1n;
		increment = 0n;
	}
	return ((lastMs << 22n) | (1n << 17n) | increment).toString();
}

/** The shard a guild belongs to, by Discord's rule `(guild_id >> 22) % shard_count`. */
export function shardOf(guildId: string, shardCount: number): number {
	return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}
