// A chosen date range for `npm run demo` (issue 34): /stats from: to: draws exactly those days from the history the
// bot keeps, names the first and last, and compares them with as many days just before.
import type { DiscordSandbox, SandboxMessage } from '../../sandbox/index.js';
import { addDays, utcDateOf } from '../../src/history/utc-days.js';
import type { Locale } from '../../src/i18n/index.js';

/** The languages the range is shown in: one step, not one per language. */
export const RANGE_DEMO_LOCALES: readonly Locale[] = ['en-US', 'ja'];

export interface RangeDemo {
	member: string;
	/** The bot's clock, epoch ms: the range ends a week before its today. */
	now: number;
	/** Dispatches a command in the pass's language and returns the bot's final message. */
	run: (options: Parameters<DiscordSandbox['dispatchCommand']>[0]) => Promise<SandboxMessage>;
	/** Adds one step to the pass's page. */
	record: (title: string, command: string, message: SandboxMessage) => void;
}

/** 45 complete days ending a week ago: older than the endpoint's 30, so the history draws most of them. */
export function demoRange(now: number): { from: string; to: string } {
	const to = addDays(utcDateOf(now), -7);
	return { from: addDays(to, -44), to };
}

/** The member's /stats over the demo's range. */
export async function playRangeStep(demo: RangeDemo): Promise<void> {
	const { from, to } = demoRange(demo.now);
	demo.record(
		'A chosen date range',
		`/stats from:${from} to:${to}`,
		await demo.run({
			name: 'stats',
			userId: demo.member,
			options: [
				{ name: 'from', type: 3, value: from },
				{ name: 'to', type: 3, value: to },
			],
		}),
	);
}
