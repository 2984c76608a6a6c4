import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { memberTranslator, resolveLocale } from '../src/i18n/index.js';
import { addAlert, listAlerts, removeAlert } from '../src/watch/alert-actions.js';
import { describeAlertState, describeRule } from '../src/watch/describe-watch.js';
import { removalText, respondWithRecords, watchListText } from './watch-lists.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'alert';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, name);
	// Every answer is private, and adding asks Discord and may ask the stats endpoint before it knows.
	await interaction.defer('private');
	if (interaction.subcommand === 'add') return add(interaction, ctx, guildId);
	if (interaction.subcommand === 'remove') return remove(interaction, ctx, guildId);
	return list(interaction, ctx, guildId);
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name !== 'id') return interaction.respond([]);
	const t = memberTranslator(interaction);
	const locale = resolveLocale(interaction.locale);
	await respondWithRecords(
		interaction,
		async (actor, guildId) => listAlerts(ctx, actor, guildId),
		(record) => ({ name: `${record.id}: ${describeRule(t, locale, record)}`, value: record.id }),
	);
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const record = await addAlert(ctx, actorOf(interaction), guildId, {
		kind: interaction.options.string('kind'),
		channel: interaction.options.channel('channel'),
		threshold: interaction.options.number('threshold'),
		guildLocale: interaction.guildLocale,
	});
	const t = memberTranslator(interaction);
	await interaction.editReply({
		content: t('watch.alert.added', {
			id: record.id,
			rule: describeRule(t, resolveLocale(interaction.locale), record),
			channelId: record.channelId,
			minutes: ctx.config.alertCheckMinutes,
		}),
	});
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const { id, removed } = await removeAlert(ctx, actorOf(interaction), guildId, interaction.options.string('id'));
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: removalText(t, 'alert', removed, { id }) });
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const listed = await listAlerts(ctx, actorOf(interaction), guildId);
	const t = memberTranslator(interaction);
	const locale = resolveLocale(interaction.locale);
	const content = watchListText(t, 'alert', listed, (record) =>
		t('watch.alert.listItem', {
			id: record.id,
			rule: describeRule(t, locale, record),
			channelId: record.channelId,
			state: describeAlertState(t, record),
		}),
	);
	await interaction.editReply({ content });
}
