import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import { addBoard, listBoards, removeBoard, type BoardAdded } from '../src/boards/board-actions.js';
import { describeBoardState, describeBoardView } from '../src/boards/describe-board.js';
import type { BoardRecord } from '../src/boards/board-record.js';
import { describeWatchPause } from '../src/watch/describe-watch.js';
import { removalText, respondWithRecords, watchListText } from './watch-lists.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'board';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, name);
	// Every answer is private, and adding asks Discord, the stats endpoint and the renderer before it knows.
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
		async (actor, guildId) => listBoards(ctx, actor, guildId),
		(record) => ({
			// Deleted channels are offered too: Discord no longer lists them, and they must stay removable.
			name:
				record.paused?.reason === 'channelGone'
					? t('watch.board.deletedChannel', { channelId: record.channelId })
					: `${describeBoardView(t, record)} (${record.channelId})`,
			value: record.channelId,
		}),
	);
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const added = await addBoard(ctx, actorOf(interaction), guildId, {
		channel: interaction.options.channel('channel'),
		days: interaction.options.integer('days'),
		metric: interaction.options.string('metric'),
		guildLocale: interaction.guildLocale,
	});
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: addedText(t, added, ctx.config.boardMinutes) });
}

function addedText(t: Translate, added: BoardAdded, minutes: number): string {
	const vars = { channelId: added.record.channelId, view: describeBoardView(t, added.record), minutes };
	if (added.state === 'posted') return t('watch.board.added', vars);
	if (added.state === 'paused')
		return t('watch.board.addedPaused', { ...vars, reason: describeWatchPause(t, added.pause) });
	return t('watch.board.addedLater', vars);
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const { channelId, removed } = await removeBoard(
		ctx,
		actorOf(interaction),
		guildId,
		interaction.options.string('channel'),
	);
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: removalText(t, 'board', removed, { channelId: channelId ?? '0' }) });
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const listed = await listBoards(ctx, actorOf(interaction), guildId);
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: watchListText(t, 'board', listed, (record) => boardLine(t, record)) });
}

/** One board as `/board list` and the manage page say it: where, what, and whether it is live, waiting or paused. */
export function boardLine(t: Translate, record: BoardRecord): string {
	return t('watch.board.listItem', {
		channelId: record.channelId,
		view: describeBoardView(t, record),
		state: describeBoardState(t, record),
	});
}
