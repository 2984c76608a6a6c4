/** Per-member cooldowns: how long until `action` may run again. */
export interface CooldownGate {
	/** Starts the cooldown and returns 0, or returns the whole seconds left when still cooling down. */
	take(userId: string, action: string): Promise<number>;
}

/** Cooldowns kept in this process: for one process on SQLite, and for tests. */
export class Cooldowns implements CooldownGate {
	private readonly until = new Map<string, number>();

	constructor(
		private readonly seconds: number,
		private readonly now: () => number = Date.now,
	) {}

	async take(userId: string, action: string): Promise<number> {
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
