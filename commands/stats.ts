import {
	ActionRowBuilder,
	ButtonBuilder,
	ButtonStyle,
	MessageFlags,
	SlashCommandBuilder,
	type ButtonInteraction,
	type ChatInputCommandInteraction,
	type RepliableInteraction,
} from 'discord.js';
import type { BotContext } from '../src/bot/context.js';
import { replyIfCoolingDown } from '../src/bot/cooldown-reply.js';
import { fetchStatsFor, type StatsScope } from '../src/bot/resolve-key.js';
import { buildStatsReply, type StatsReply } from '../src/bot/stats-reply.js';
import { CHART_DAYS, type ChartDays } from '../src/render/chart.js';
import { UserFacingError } from '../src/bot/user-facing-error.js';

const DEFAULT_DAYS: ChartDays = 30;

export const definition = new SlashCommandBuilder()
	.setName('stats')
	.setDescription("Show your advertising account's sends and joins")
	.addStringOption((option) =>
		option
			.setName('scope')
			.setDescription("Whose statistics: your own linked key (default) or this server's")
			.addChoices({ name: 'me', value: 'me' }, { name: 'server', value: 'server' }),
	)
	.addIntegerOption((option) =>
		option
			.setName('days')
			.setDescription('Days shown in the chart (default 30)')
			.addChoices(...CHART_DAYS.map((days) => ({ name: `${days} days`, value: days }))),
	)
	.addBooleanOption((option) =>
		option.setName('share').setDescription('Post the result publicly in this channel (default: only you see it)'),
	);

interface StatsRequest {
	scope: StatsScope;
	days: ChartDays;
}

export async function execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void> {
	const request = readRequest(interaction);
	const share = interaction.options.getBoolean('share') ?? false;
	if (await replyIfCoolingDown(interaction, ctx, 'stats')) return;
	// Deferred privately even when sharing, so any failure stays private (DESIGN: /stats share:true).
	const reply = await acknowledgeThen(
		() => interaction.deferReply({ flags: MessageFlags.Ephemeral }),
		() => statsReply(interaction, ctx, request, interaction.user.id),
	);
	if (share) {
		await postPublicly(interaction, reply);
		return;
	}
	const components = interaction.inGuild() ? [shareButton(interaction.user.id, request)] : [];
	await interaction.editReply({ ...reply, components });
}

/**
 * "Share in channel": posts a public copy of the owner's private reply as a new message. The press
 * is acknowledged as an update of the private message, which then loses its button: a press adds
 * no message of its own and cannot post duplicates.
 */
export async function onButton(interaction: ButtonInteraction, ctx: BotContext): Promise<void> {
	const [, action, ownerId, scope, days] = interaction.customId.split(':');
	if (action !== 'share' || !ownerId || !isScope(scope) || !isChartDays(Number(days))) {
		throw new UserFacingError('This button is outdated. Run `/stats` again.');
	}
	if (interaction.user.id !== ownerId) {
		throw new UserFacingError('Only the member who ran `/stats` can share this result.');
	}
	if (await replyIfCoolingDown(interaction, ctx, 'share')) return;
	const request = { scope, days: Number(days) as ChartDays };
	const reply = await acknowledgeThen(
		() => interaction.deferUpdate(),
		() => statsReply(interaction, ctx, request, ownerId),
	);
	await interaction.followUp(reply); // no Ephemeral flag: a new public message
	await interaction.editReply({ components: [] });
}

function readRequest(interaction: ChatInputCommandInteraction): StatsRequest {
	const scope = interaction.options.getString('scope') ?? 'me';
	const days = interaction.options.getInteger('days') ?? DEFAULT_DAYS;
	// Discord enforces the choices, but a stale client or a crafted request may not.
	if (!isScope(scope)) throw new UserFacingError('`scope` must be `me` or `server`.');
	if (!isChartDays(days)) throw new UserFacingError(`\`days\` must be one of ${CHART_DAYS.join(', ')}.`);
	return { scope, days };
}

/**
 * Sends the acknowledgement first, then builds the reply while Discord processes it: the member
 * waits for the slower of the two, not their sum. A failure surfaces only once the acknowledgement
 * has landed, so the router answers it as a follow-up or edit of the acknowledged interaction.
 */
async function acknowledgeThen<T>(acknowledge: () => Promise<unknown>, work: () => Promise<T>): Promise<T> {
	const acknowledged = acknowledge();
	const result = work();
	result.catch(() => undefined); // awaited below; this only keeps an early rejection from counting as unhandled
	await acknowledged;
	return result;
}

async function statsReply(
	interaction: RepliableInteraction,
	ctx: BotContext,
	request: StatsRequest,
	userId: string,
): Promise<StatsReply> {
	const result = await fetchStatsFor(ctx, { scope: request.scope, userId, guildId: interaction.guildId });
	return buildStatsReply(ctx, result, { locale: interaction.locale, days: request.days, scope: request.scope });
}

/**
 * The private reply is edited first: after a defer, Discord turns the first follow-up into the
 * deferred (private) message itself, so only a follow-up sent after the edit is a new public message.
 */
async function postPublicly(interaction: RepliableInteraction, reply: StatsReply): Promise<void> {
	await interaction.editReply({ content: 'Posted in the channel.', embeds: [], components: [], attachments: [] });
	await interaction.followUp(reply); // no Ephemeral flag: a new public message
}

function shareButton(ownerId: string, request: StatsRequest): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder()
			.setCustomId(`stats:share:${ownerId}:${request.scope}:${request.days}`)
			.setLabel('Share in channel')
			.setStyle(ButtonStyle.Secondary),
	);
}

function isScope(value: unknown): value is StatsScope {
	return value === 'me' || value === 'server';
}

function isChartDays(value: number): value is ChartDays {
	return (CHART_DAYS as readonly number[]).includes(value);
}
