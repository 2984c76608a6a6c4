import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { HistoryRecord } from '../history/record.js';
import { fitEmbedToLimits } from './embed-limits.js';

/**
 * The goals a stats embed shows, as the goals feature (above stats) hands them down. Their figures are measured on
 * the history the reply folds its snapshot into, so the fields are asked for with that record.
 */
export interface EmbedGoals {
	/** Equal for two lists that give equal fields on one record, day and language: part of the embed cache's key. */
	readonly key: string;
	/** One field per goal, in the goals' order. */
	fields(record: HistoryRecord | null, options: { locale: string; now: number }): APIEmbedField[];
}

/** A reply without goals (a target without any, or a test of the embed alone). */
export const NO_GOALS: EmbedGoals = { key: '', fields: () => [] };

/** The /stats embed (and a report's) with one field per goal of the account, still within Discord's limits. */
export function withGoalFields(
	embed: APIEmbed,
	goals: EmbedGoals,
	record: HistoryRecord | null,
	options: { locale: string; now?: number },
): APIEmbed {
	const fields = goals.fields(record, { locale: options.locale, now: options.now ?? Date.now() });
	if (fields.length === 0) return embed;
	return fitEmbedToLimits({ ...embed, fields: [...(embed.fields ?? []), ...fields] });
}
