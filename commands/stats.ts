import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { BotContext } from '../src/interactions/context.js';
import { replyIfCoolingDown } from '../src/interactions/cooldown-reply.js';
import { memberTranslator } from '../src/interactions/member-language.js';
import type { ComponentInteraction, CommandInteraction, RepliableInteraction } from '../src/interactions/types.js';
import { UserFacingError } from '../src/interactions/user-facing-error.js';
import { privateLocale, publicLocale } from '../src/stats/public-locale.js';
import { isStatsDays, isStatsMetric, parseStatsRequest, type StatsRequest } from '../src/stats/request.js';
import { isStatsScope } from '../src/stats/scope.js';
import { showStats } from '../src/stats/show-stats.js';
import type { StatsReply } from '../src/stats/stats-reply.js';

export { definition } from './definitions/stats.js';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const request = parseStatsRequest({
		scope: interaction.options.string('scope'),
		days: interaction.options.integer('days'),
		metric: interaction.options.string('metric'),
	});
	const share = interaction.options.boolean('share') ?? false;
	if (await replyIfCoolingDown(interaction, ctx, 'stats')) return;
	// Deferred privately even when sharing, so any failure stays private.
	const reply = await acknowledgeThen(
		() => interaction.defer('private'),
		() => statsReply(interaction, ctx, request, interaction.userId, share),
	);
	if (share) {
		await postPublicly(interaction, reply);
		return;
	}
	// A share button in a DM would post to the same private conversation: offer it in servers only.
	const components = interaction.guildId !== null ? [shareButton(interaction, request)] : [];
	await interaction.editReply({ ...reply, components });
}

/**
 * "Share in channel": posts a public copy of the owner's private reply as a new message, in the server's
 * language. The press is acknowledged as an update of the private message, which then loses its button: a
 * press adds no message of its own and cannot post duplicates.
 */
export async function onButton(interaction: ComponentInteraction, ctx: BotContext): Promise<void> {
	// Buttons from before `metric` existed carry five parts and showed sends.
	const [, action, ownerId, scope, days, metric = 'sends'] = interaction.customId.split(':');
	if (action !== 'share' || !ownerId || !isStatsScope(scope) || !isStatsDays(Number(days)) || !isStatsMetric(metric)) {
		throw new UserFacingError('stats.buttonOutdated');
	}
	if (interaction.userId !== ownerId) {
		throw new UserFacingError('stats.notOwner');
	}
	if (await replyIfCoolingDown(interaction, ctx, 'share')) return;
	const request = parseStatsRequest({ scope, days: Number(days), metric });
	const reply = await acknowledgeThen(
		() => interaction.deferUpdate(),
		() => statsReply(interaction, ctx, request, ownerId, true),
	);
	await interaction.followUp(reply, 'public');
	await interaction.editReply({ components: [] });
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

/** A public copy is worded for the channel (the server's language) and names who posted it. */
function statsReply(
	interaction: RepliableInteraction,
	ctx: BotContext,
	request: StatsRequest,
	userId: string,
	isPublic: boolean,
): Promise<StatsReply> {
	return showStats(
		ctx,
		{ scope: request.scope, userId, guildId: interaction.guildId },
		{
			days: request.days,
			metric: request.metric,
			locale: isPublic ? publicLocale(interaction) : privateLocale(interaction),
			sharedBy: isPublic ? userId : null,
		},
	);
}

/**
 * The private reply is edited first: after a defer, Discord turns the first follow-up into the
 * deferred (private) message itself, so only a follow-up sent after the edit is a new public message.
 */
async function postPublicly(interaction: RepliableInteraction, reply: StatsReply): Promise<void> {
	const content = memberTranslator(interaction)('stats.postedInChannel');
	await interaction.editReply({ content, embeds: [], components: [], files: [] });
	await interaction.followUp(reply, 'public');
}

function shareButton(interaction: RepliableInteraction, request: StatsRequest) {
	const { scope, days, metric } = request;
	return new ActionRowBuilder<ButtonBuilder>()
		.addComponents(
			new ButtonBuilder()
				.setCustomId(`stats:share:${interaction.userId}:${scope}:${days}:${metric}`)
				.setLabel(memberTranslator(interaction)('buttons.share'))
				.setStyle(ButtonStyle.Secondary),
		)
		.toJSON();
}
