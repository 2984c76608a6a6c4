import type { BotContext } from '../src/discord/context.js';
import { replyIfCoolingDown } from '../src/discord/cooldowns.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction } from '../src/discord/interaction.js';
import { sanitizeAccountName } from '../src/render/embed.js';
import { formatUtcDate } from '../src/render/format.js';
import { exportStats } from '../src/stats/export-stats.js';
import { privateLocale } from '../src/stats/public-locale.js';
import { requireScopeAllowed, settingsOf } from '../src/settings/stats-access.js';
import { completeStatsRequest, parseStatsOptions } from '../src/stats/request.js';
import { rangeLine } from '../src/stats/stats-reply.js';
import { clockOf } from '../src/core/actor.js';
import { utcDateOf } from '../src/history/utc-days.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'export';

/** The daily figures as a CSV file, for the member only; the header stays English because programs read it. */
export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	// Checked before anything is read: a wrong day or range is answered at once, with nothing fetched.
	const options = parseStatsOptions({
		scope: interaction.options.string('scope'),
		days: interaction.options.integer('days'),
		from: interaction.options.string('from'),
		to: interaction.options.string('to'),
		today: utcDateOf(clockOf(ctx)()),
	});
	const scope = options.scope;
	// Its own cooldown of the same length: an export right after /stats is a normal thing to do.
	if (await replyIfCoolingDown(interaction, ctx, 'export')) return;
	await interaction.defer('private');
	// The server's figures, in a file: the same rule as `/stats scope:server`.
	const settings = await settingsOf(ctx, interaction.guildId);
	requireScopeAllowed(interaction, settings, scope);
	const { days, range } = completeStatsRequest(options, settings);
	const target = { scope, userId: interaction.userId, guildId: interaction.guildId };
	const file = await exportStats(ctx, target, { days, range });
	const t = memberTranslator(interaction);
	const locale = privateLocale(interaction);
	// A range reaching before the history says from when the bot knows figures.
	const knownFrom =
		file.knownFrom === null ? [] : [t('range.knownFrom', { date: formatUtcDate(file.knownFrom, locale) })];
	if (!file.hasData) {
		// A chosen range is named even when it holds nothing, so the member sees which days came back empty.
		const shown = range ? [rangeLine(range, locale)] : [];
		await interaction.editReply({ content: [t('export.noData'), ...shown, ...knownFrom].join('\n') });
		return;
	}
	const ready = t('export.ready', {
		account: file.accountName === null ? '—' : sanitizeAccountName(file.accountName),
		from: formatUtcDate(file.from, locale),
		to: formatUtcDate(file.to, locale),
	});
	const content = [ready, ...knownFrom].join('\n');
	await interaction.editReply({
		content,
		files: [{ name: file.fileName, data: Buffer.from(file.csv, 'utf8'), contentType: 'text/csv; charset=utf-8' }],
	});
}
