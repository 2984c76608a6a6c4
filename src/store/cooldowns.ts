import type { Coordinator } from './claim-types.js';

// Per-member cooldowns on `/stats`, `/link`, Share and the dashboard's own-key form (STATS_COOLDOWN_SECONDS).

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

/**
 * Cooldowns kept in the shared store, so a member cannot escape one by landing on another process:
 * the cooldown is a claim that expires on its own.
 */
export function claimCooldowns(coordinator: Pick<Coordinator, 'claim'>, seconds: number): CooldownGate {
	return {
		async take(userId, action) {
			if (seconds <= 0) return 0;
			const claim = await coordinator.claim(`cooldown:${action}:${userId}`, seconds * 1000);
			return claim.claimed ? 0 : Math.max(1, Math.ceil(claim.retryAfterMs / 1000));
		},
	};
}
