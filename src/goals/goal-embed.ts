import type { APIEmbed } from 'discord.js';
import type { HistoryRecord } from '../history/record.js';
import { fitEmbedToLimits } from '../render/embed-limits.js';
import { describeGoal } from './describe-goal.js';
import { figuresOfGoals } from './goal-figures.js';
import type { Goal } from './goal-record.js';

/** The /stats embed (and a report's) with one field per goal of the account, still within Discord's limits. */
export function withGoalFields(
	embed: APIEmbed,
	goals: readonly Goal[],
	record: HistoryRecord | null,
	options: { locale: string; now?: number },
): APIEmbed {
	if (goals.length === 0) return embed;
	const fields = figuresOfGoals(goals, record, options.now ?? Date.now()).map((figures) => ({
		...describeGoal(options.locale, figures),
		inline: false,
	}));
	return fitEmbedToLimits({ ...embed, fields: [...(embed.fields ?? []), ...fields] });
}
