import type { Coordinator } from '../store/coordination.js';
import type { CooldownGate } from './cooldowns.js';

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
