import type { SlashCommandBuilder, SlashCommandOptionsOnlyBuilder } from 'discord.js';

import { STATS_DAYS } from '../../src/stats-options.js';
import { STATS_SCOPES } from '../../src/stats-options.js';
import { described, localizedChoices } from './localized.js';

/** `scope` and `days`, shared by /stats and /export so both read the same account over the same days. */
export function withScopeAndDays(
	builder: SlashCommandBuilder,
	command: 'stats' | 'export',
): SlashCommandOptionsOnlyBuilder {
	return builder
		.addStringOption((option) =>
			described(option.setName('scope'), `commands.${command}.options.scope.description`).addChoices(
				...localizedChoices(STATS_SCOPES, (scope) => `choices.scope.${scope}`),
			),
		)
		.addIntegerOption((option) =>
			described(option.setName('days'), `commands.${command}.options.days.description`).addChoices(
				...localizedChoices(STATS_DAYS, (days) => `choices.days.${days}`),
			),
		);
}

/**
 * `from` and `to` (UTC days, `YYYY-MM-DD`, both optional), shared by /stats and /export: they win over `days`.
 * No length limits here: a malformed day reaches the bot, which says what is wrong in the member's language.
 */
export function withDateRange(
	builder: SlashCommandOptionsOnlyBuilder,
	command: 'stats' | 'export',
): SlashCommandOptionsOnlyBuilder {
	return builder
		.addStringOption((option) => described(option.setName('from'), `commands.${command}.options.from.description`))
		.addStringOption((option) => described(option.setName('to'), `commands.${command}.options.to.description`));
}
