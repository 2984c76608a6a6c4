// Goals for `npm run demo`: per language, the admin sets a monthly sends goal on the server account with /goal set
// and lists it with /goal show; the /stats scope:server that follows (and the weekly report) shows it as a field. The
// dashboard's server gets the same goal through the core action, so its page draws the bar, the forecast and the band.
import type { DiscordSandbox, SandboxMessage } from '../../sandbox/index.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { setGoal } from '../../src/goals/goal-actions.js';

/** The demo's monthly target for the server account's sends. */
export const DEMO_GOAL_TARGET = 5_000;

export interface GoalDemo {
	/** A member with Manage Server, and that permission as Discord sends it. */
	admin: string;
	manageServer: string;
	/** Dispatches a command in the pass's language and returns the bot's final message. */
	run: (options: Parameters<DiscordSandbox['dispatchCommand']>[0]) => Promise<SandboxMessage>;
	/** Adds one step to the pass's page. */
	record: (title: string, command: string, message: SandboxMessage) => void;
}

/** /goal set and /goal show on the pass's server, once its key is linked. */
export async function playGoalFlow(demo: GoalDemo): Promise<void> {
	const asAdmin = { userId: demo.admin, permissions: demo.manageServer };
	demo.record(
		'Goal: sends this month',
		`/goal set metric:sends target:${DEMO_GOAL_TARGET} period:month scope:server`,
		await demo.run({
			name: 'goal',
			subcommand: 'set',
			...asAdmin,
			options: [
				{ name: 'metric', type: 3, value: 'sends' },
				{ name: 'target', type: 4, value: DEMO_GOAL_TARGET },
				{ name: 'period', type: 3, value: 'month' },
				{ name: 'scope', type: 3, value: 'server' },
			],
		}),
	);
	demo.record(
		"The server's goals",
		'/goal show scope:server',
		await demo.run({
			name: 'goal',
			subcommand: 'show',
			...asAdmin,
			options: [{ name: 'scope', type: 3, value: 'server' }],
		}),
	);
}

/** The same goal on the dashboard's server, set as the manage page would (the admin, from the dashboard). */
export async function setDashboardGoal(ctx: CoreContext, guildId: string, admin: string): Promise<void> {
	await setGoal(
		ctx,
		{ userId: admin, canManageServer: true, roleIds: [], origin: 'dashboard' },
		{ scope: 'server', guildId, metric: 'sends', period: 'month', target: DEMO_GOAL_TARGET },
	);
}
