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

// Fixture ids use worker 2 so they never collide with nextSnowflake(), which uses worker 1.
const FIXTURE_WORKER = 2n;
/** Ids a fixture may derive from one timestamp (the 12-bit increment). */
export const FIXTURE_IDS_PER_MS = 4096;

/** The milliseconds since Discord's epoch `ms` ago, as a fixture timestamp. */
export function pastTimestamp(msAgo: number): number {
	return Number(BigInt(Date.now()) - DISCORD_EPOCH) - msAgo;
}

/** Unix milliseconds of a fixture timestamp (ms since Discord's epoch). */
export function fixtureTime(ms: number): number {
	return Number(BigInt(ms) + DISCORD_EPOCH);
}

/** A fixture's id: its own timestamp `ms`, worker 2, and `increment` (0 … 4095) for the objects it owns. */
export function fixtureSnowflake(ms: number, increment: number): string {
	return ((BigInt(ms) << 22n) | (FIXTURE_WORKER << 17n) | BigInt(increment)).toString();
}

/** Timestamp and increment of a fixture id, or undefined for any other snowflake. */
export function parseFixtureSnowflake(id: string): { ms: number; increment: number } | undefined {
	if (!/^\d{1,20}$/.test(id)) return undefined;
	const value = BigInt(id);
	if (((value >> 17n) & 0x1fn) !== FIXTURE_WORKER || ((value >> 12n) & 0x1fn) !== 0n) return undefined;
	return { ms: Number(value >> 22n), increment: Number(value & 0xfffn) };
}
