/**
 * Per-user cooldowns kept in this process. With several shards each process keeps its own,
 * which only makes the limit per shard; the stats cache still absorbs repeated calls.
 */
export class Cooldowns {
	private readonly until = new Map<string, number>();

	constructor(
		private readonly seconds: number,
		private readonly now: () => number = Date.now,
	) {}

	/** Starts the cooldown and returns 0, or returns the whole seconds left when still cooling down. */
	take(userId: string, action: string): number {
		if (this.seconds <= 0) return 0;
		const key = `${action}:${userId}`;
		const now = this.now();
		const until = this.until.get(key);
		if (until !== undefined && until > now) return Math.ceil((until - now) / 1000);
		if (this.until.size > 10_000) this.prune(now);
		this.until.set(key, now + this.seconds * 1000);
		return 0;
	}

	private prune(now: number): void {
		for (const [key, until] of this.until) if (until <= now) this.until.delete(key);
	}
}
