import type { EmbedGoals } from '../render/goal-fields.js';
import { describeGoal } from './describe-goal.js';
import { figuresOfGoals } from './goal-figures.js';
import type { Goal } from './goal-record.js';
import { goalsForTarget } from './goal-store.js';

/** Goals as the /stats embed (and a report's, a board's) shows them: one field each, in the reply's language. */
export function embedGoalsOf(goals: readonly Goal[]): EmbedGoals {
	if (goals.length === 0) return { key: '', fields: () => [] };
	return {
		key: JSON.stringify(goals.map((goal) => [goal.metric, goal.period, goal.target])),
		fields: (record, { locale, now }) =>
			figuresOfGoals(goals, record, now).map((figures) => ({ ...describeGoal(locale, figures), inline: false })),
	};
}

/** The goals of the owner a stats target names, read for a stats reply to show (see goalsForTarget). */
export async function embedGoalsFor(
	ctx: Parameters<typeof goalsForTarget>[0],
	target: Parameters<typeof goalsForTarget>[1],
): Promise<EmbedGoals> {
	return embedGoalsOf(await goalsForTarget(ctx, target));
}
