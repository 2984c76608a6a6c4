import { auditActor } from '../src/actor.js';
import { actorOf } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { memberTranslator, translator } from '../src/i18n/index.js';
import { auditTime } from '../src/settings/audit.js';
import { describeFigure, describeWatchPause } from '../src/watch/describe.js';
import { statChannelPermissions } from '../src/watch/permissions.js';
import { refreshStatChannel } from '../src/watch/stat-channels.js';
import { auditWatch, serverLocale, statChannelDeps, watchStoreOf } from '../src/watch/watch-context.js';
import {
	isStatFigure,
	MAX_STAT_CHANNELS_PER_SERVER,
	WATCH_SCHEMA_VERSION,
	type StatChannelRecord,
} from '../src/watch/watch-record.js';
import { channelIdOf, requireChannelPermissions, requireManageServer, requireServerKey } from './watch-checks.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'statchannel';

const COMMAND = 'statchannel';
/** Voice, category and stage channels: their names show in everyone's sidebar and take no messages. */
const STAT_CHANNEL_TYPES: readonly number[] = [2, 4, 13];
const MAX_CHOICES = 25;

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction, COMMAND);
	if (interaction.subcommand === 'add') return add(interaction, ctx, guildId);
	if (interaction.subcommand === 'remove') return remove(interaction, ctx, guildId);
	return list(interaction, ctx, guildId);
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name !== 'channel' || interaction.guildId === null) return interaction.respond([]);
	const t = memberTranslator(interaction);
	const typed = interaction.focused.value.toLowerCase();
	const records = await watchStoreOf(ctx).statChannels.listServer(interaction.guildId);
	const choices = records.map((record) => ({
		name: (record.paused?.reason === 'channelGone'
			? t('watch.statChannel.deletedChannel', { channelId: record.channelId })
			: `${record.name ?? describeFigure(t, record.figure)} (${record.channelId})`
		).slice(0, 100),
		value: record.channelId,
	}));
	await interaction.respond(
		choices
			.filter((choice) => choice.name.toLowerCase().includes(typed) || choice.value.includes(typed))
			.slice(0, MAX_CHOICES),
	);
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const channel = interaction.options.channel('channel');
	if (!channel || (channel.type !== null && !STAT_CHANNEL_TYPES.includes(channel.type))) {
		throw new UserFacingError('watch.statChannel.wrongType');
	}
	const figure = interaction.options.string('figure');
	if (!isStatFigure(figure)) throw new UserFacingError('watch.statChannel.invalidFigure');
	await requireServerKey(ctx, guildId);
	await interaction.defer('private');
	await requireChannelPermissions(interaction, ctx, guildId, channel.id, statChannelPermissions(channel.type));
	const watch = watchStoreOf(ctx);
	// Two admins adding at once must not get past the limit together.
	const record = await watch.withServerLock('statchannel', guildId, async () => {
		const existing = await watch.statChannels.listServer(guildId);
		const previous = existing.find((candidate) => candidate.channelId === channel.id) ?? null;
		const kept = previous ?? (await watch.keptRenameBudget(channel.id));
		if (!previous && existing.length >= MAX_STAT_CHANNELS_PER_SERVER) {
			throw new UserFacingError('watch.statChannel.tooMany', { max: MAX_STAT_CHANNELS_PER_SERVER });
		}
		const next: StatChannelRecord = {
			v: WATCH_SCHEMA_VERSION,
			guildId,
			channelId: channel.id,
			figure,
			createdBy: interaction.userId,
			createdAt: interaction.createdAt,
			guildLocale: interaction.guildLocale,
			paused: null,
			// The budget stays with the channel: removing and adding it again must not buy extra renames.
			name: previous?.figure === figure ? previous.name : null,
			renames: kept?.renames ?? [],
			blockedUntil: kept?.blockedUntil ?? 0,
			pending: null,
		};
		await watch.statChannels.put(next);
		return next;
	});
	const outcome = await refreshStatChannel(statChannelDeps(ctx, Date.now), record);
	const t = memberTranslator(interaction);
	const stored = await watch.statChannels.get(guildId, channel.id);
	const vars = { channelId: channel.id, figure: describeFigure(t, figure), minutes: ctx.config.statChannelMinutes };
	let content = t('watch.statChannel.addedLater', vars);
	if ((outcome === 'renamed' || outcome === 'unchanged') && stored?.name) {
		content = t('watch.statChannel.added', { ...vars, name: stored.name });
	} else if (stored?.paused) {
		content = t('watch.statChannel.listItemPaused', { ...vars, reason: describeWatchPause(t, stored.paused) });
	}
	await interaction.editReply({ content });
	const serverT = translator(await serverLocale(ctx, guildId, interaction.guildLocale));
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.statChannelAdded',
			vars: {
				actor: auditActor(actorOf(interaction)),
				channelId: channel.id,
				figure: describeFigure(serverT, figure),
				when: auditTime(),
			},
		},
		interaction.guildLocale,
	);
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const channelId = channelIdOf(interaction.options.string('channel'));
	await interaction.defer('private');
	let removed = null as StatChannelRecord | null;
	if (channelId !== null) {
		const watch = watchStoreOf(ctx);
		await watch.statChannels.update(guildId, channelId, (current) => {
			removed = current;
			return current === null ? undefined : null;
		});
		if (removed) await watch.keepRenameBudget(removed, Date.now());
	}
	const t = memberTranslator(interaction);
	await interaction.editReply({
		content: t(removed ? 'watch.statChannel.removed' : 'watch.statChannel.notFound', { channelId: channelId ?? '0' }),
	});
	if (!removed || channelId === null) return;
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.statChannelRemoved',
			vars: { actor: auditActor(actorOf(interaction)), channelId, when: auditTime() },
		},
		interaction.guildLocale,
	);
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const t = memberTranslator(interaction);
	await interaction.defer('private');
	const records = await watchStoreOf(ctx).statChannels.listServer(guildId);
	if (records.length === 0) {
		await interaction.editReply({ content: t('watch.statChannel.listEmpty') });
		return;
	}
	const lines = [
		t('watch.statChannel.listHeader', {
			count: records.length,
			max: MAX_STAT_CHANNELS_PER_SERVER,
			minutes: ctx.config.statChannelMinutes,
		}),
	];
	for (const record of records) {
		const figure = describeFigure(t, record.figure);
		if (record.paused) {
			const reason = describeWatchPause(t, record.paused);
			lines.push(t('watch.statChannel.listItemPaused', { channelId: record.channelId, figure, reason }));
		} else {
			lines.push(t('watch.statChannel.listItem', { channelId: record.channelId, figure, name: record.name ?? '—' }));
		}
	}
	if (records.some((record) => record.paused)) lines.push(t('watch.statChannel.resumeHint'));
	await interaction.editReply({ content: lines.join('\n') });
}
