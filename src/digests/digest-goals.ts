import type { APIEmbedField } from 'discord.js';
import { describeGoal } from '../goals/describe-goal.js';
import { goalFiguresFor } from '../goals/goal-figures.js';
import type { GoalStoreContext } from '../goals/goal-store.js';
import type { HistoryRecord } from '../history/record.js';
import type { Locale } from '../i18n/index.js';

/**
 * The member's own goals (`/goal set scope:me`) as the digest shows them, one field each, worded as `/stats` and
 * `/goal show` word them; none when the member has set no goal.
 */
export async function digestGoalFields(
	ctx: GoalStoreContext,
	userId: string,
	history: HistoryRecord | null,
	now: number,
	locale: Locale,
): Promise<APIEmbedField[]> {
	const goals = await goalFiguresFor(ctx, { scope: 'me', userId }, history, now);
	return goals.map((figures) => ({ ...describeGoal(locale, figures), inline: false }));
}
