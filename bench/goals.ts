// The cache-hit /stats bench's account carries the most goals a scope may have, so the bot's own share covers the
// goal fields (their forecast is worked out once per history record and day; a cached reply reuses it).
import type { DiscordSandbox } from '../sandbox/index.js';
import { GOAL_METRICS, GOAL_PERIODS } from '../src/goals/goal-record.js';

/** Sets a goal for every metric and period (4, the most a scope may have) on the member's own account. */
export async function setBenchGoals(sandbox: DiscordSandbox, userId: string): Promise<void> {
	for (const metric of GOAL_METRICS) {
		for (const period of GOAL_PERIODS) {
			const message = await sandbox
				.dispatchCommand({
					name: 'goal',
					subcommand: 'set',
					userId,
					options: [
						{ name: 'metric', type: 3, value: metric },
						{ name: 'target', type: 4, value: period === 'month' ? 30_000 : 7_000 },
						{ name: 'period', type: 3, value: period },
					],
				})
				.finalMessage(10_000);
			if (!message.content.startsWith('Goal set')) throw new Error(`goal not set: ${message.content}`);
		}
	}
}
