import type { BotContext } from '../src/discord/context.js';
import { replyIfCoolingDown } from '../src/discord/cooldowns.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction } from '../src/discord/interaction.js';
import { sanitizeAccountName } from '../src/render/embed.js';
import { formatUtcDate } from '../src/render/format.js';
import { exportStats } from '../src/stats/export-stats.js';
import { privateLocale } from '../src/stats/public-locale.js';
import { requireScopeAllowed, settingsOf } from '../src/settings/stats-access.js';
import { parseStatsRequest } from '../src/stats/request.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'export';

/** The daily figures as a CSV file, for the member only; the header stays English because programs read it. */
export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const { scope, days } = parseStatsRequest({
		scope: interaction.options.string('scope'),
		days: interaction.options.integer('days'),
	});
	// Its own cooldown of the same length: an export right after /stats is a normal thing to do.
	if (await replyIfCoolingDown(interaction, ctx, 'export')) return;
	await interaction.defer('private');
	// The server's figures, in a file: the same rule as `/stats scope:server`.
	requireScopeAllowed(interaction, await settingsOf(ctx, interaction.guildId), scope);
	const file = await exportStats(ctx, { scope, userId: interaction.userId, guildId: interaction.guildId }, { days });
	const t = memberTranslator(interaction);
	if (!file.hasData) {
		await interaction.editReply({ content: t('export.noData') });
		return;
	}
	const locale = privateLocale(interaction);
	const content = t('export.ready', {
		account: file.accountName === null ? '—' : sanitizeAccountName(file.accountName),
		from: formatUtcDate(file.from, locale),
		to: formatUtcDate(file.to, locale),
	});
	await interaction.editReply({
		content,
		files: [{ name: file.fileName, data: Buffer.from(file.csv, 'utf8'), contentType: 'text/csv; charset=utf-8' }],
	});
}
