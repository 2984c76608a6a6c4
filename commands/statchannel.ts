import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import { describeFigure, describeWatchPause } from '../src/watch/describe-watch.js';
import {
	addStatChannel,
	listStatChannels,
	removeStatChannel,
	type StatChannelAdded,
} from '../src/watch/stat-channel-actions.js';
import type { StatChannelRecord } from '../src/watch/watch-record.js';
import { removalText, respondWithRecords, watchListText } from './watch-lists.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'statchannel';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, name);
	// Every answer is private, and adding asks Discord and renames before it knows.
	await interaction.defer('private');
	if (interaction.subcommand === 'add') return add(interaction, ctx, guildId);
	if (interaction.subcommand === 'remove') return remove(interaction, ctx, guildId);
	return list(interaction, ctx, guildId);
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name !== 'channel') return interaction.respond([]);
	const t = memberTranslator(interaction);
	await respondWithRecords(
		interaction,
		async (actor, guildId) => listStatChannels(ctx, actor, guildId),
		(record) => ({
			// Deleted channels are offered too: Discord no longer lists them, and they must stay removable.
			name:
				record.paused?.reason === 'channelGone'
					? t('watch.statChannel.deletedChannel', { channelId: record.channelId })
					: `${record.name ?? describeFigure(t, record.figure)} (${record.channelId})`,
			value: record.channelId,
		}),
	);
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const added = await addStatChannel(ctx, actorOf(interaction), guildId, {
		channel: interaction.options.channel('channel'),
		figure: interaction.options.string('figure'),
		guildLocale: interaction.guildLocale,
	});
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: addedText(t, added, ctx.config.statChannelMinutes) });
}

function addedText(t: Translate, added: StatChannelAdded, minutes: number): string {
	const vars = { channelId: added.record.channelId, figure: describeFigure(t, added.record.figure), minutes };
	if (added.state === 'named') return t('watch.statChannel.added', { ...vars, name: added.name });
	if (added.state === 'paused') {
		return t('watch.statChannel.listItemPaused', { ...vars, reason: describeWatchPause(t, added.pause) });
	}
	return t('watch.statChannel.addedLater', vars);
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const { channelId, removed } = await removeStatChannel(
		ctx,
		actorOf(interaction),
		guildId,
		interaction.options.string('channel'),
	);
	const t = memberTranslator(interaction);
	await interaction.editReply({
		content: removalText(t, 'statChannel', removed, { channelId: channelId ?? '0' }),
	});
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const listed = await listStatChannels(ctx, actorOf(interaction), guildId);
	const t = memberTranslator(interaction);
	await interaction.editReply({
		content: [watchListText(t, 'statChannel', listed, (record) => listLine(t, record)), latenessLine(t, listed)]
			.filter((line) => line !== '')
			.join('\n'),
	});
}

/** How late the refreshes run, when this process knows and the server has any stat channel. */
function latenessLine(t: Translate, listed: { records: unknown[]; lateMinutes?: number | null }): string {
	if (listed.records.length === 0 || listed.lateMinutes === undefined || listed.lateMinutes === null) return '';
	return listed.lateMinutes < 1
		? t('watch.statChannel.onTime')
		: t('watch.statChannel.late', { minutes: listed.lateMinutes });
}

function listLine(t: Translate, record: StatChannelRecord): string {
	const figure = describeFigure(t, record.figure);
	if (record.paused) {
		const reason = describeWatchPause(t, record.paused);
		return t('watch.statChannel.listItemPaused', { channelId: record.channelId, figure, reason });
	}
	return t('watch.statChannel.listItem', { channelId: record.channelId, figure, name: record.name ?? '—' });
}
