import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { BotContext } from '../src/interactions/context.js';
import { replyIfCoolingDown } from '../src/interactions/cooldown-reply.js';
import type { ComponentInteraction, CommandInteraction, RepliableInteraction } from '../src/interactions/types.js';
import { UserFacingError } from '../src/interactions/user-facing-error.js';
import { memberTranslator } from '../src/interactions/member-language.js';
import { mayPostHere } from '../src/settings/access.js';
import { serverLanguage } from '../src/settings/language.js';
import { requireScopeAllowed, requireSharePress, settingsOf, shareDestination } from '../src/settings/stats-access.js';
import { isChartDays, parseStatsRequest, type StatsRequest } from '../src/stats/request.js';
import { isStatsScope } from '../src/stats/scope.js';
import { showStats } from '../src/stats/show-stats.js';
import type { StatsReply } from '../src/stats/stats-reply.js';

export { definition } from './definitions/stats.js';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const scope = interaction.options.string('scope');
	const days = interaction.options.integer('days');
	parseStatsRequest({ scope, days }); // a wrong option is answered at once, before any store is read
	const share = interaction.options.boolean('share') ?? false;
	if (await replyIfCoolingDown(interaction, ctx, 'stats')) return;
	// Deferred privately even when sharing, so any failure or refusal stays private.
	const { settings, request, destination, reply } = await acknowledgeThen(
		() => interaction.defer('private'),
		async () => {
			const settings = await settingsOf(ctx, interaction.guildId);
			const request = parseStatsRequest({ scope, days: days ?? settings.defaultDays });
			requireScopeAllowed(interaction, settings, request.scope);
			const destination = share ? shareDestination(interaction, settings) : null;
			const locale =
				destination?.kind === 'public' ? serverLanguage(settings, interaction.guildLocale) : interaction.locale;
			const reply = await statsReply(interaction, ctx, request, interaction.userId, locale);
			return { settings, request, destination, reply };
		},
	);
	if (destination?.kind === 'public') {
		await postPublicly(interaction, reply);
		return;
	}
	if (destination?.kind === 'private') {
		const content = memberTranslator(interaction)('refusal.shareChannelPrivateCopy', {
			channelId: destination.channelId,
		});
		await interaction.editReply({ ...reply, content, components: [] });
		return;
	}
	// A share button in a DM would post to the same private conversation, and one the rules would refuse is
	// noise: offer it only where a press could post. The press is checked again.
	const offer = interaction.guildId !== null && mayPostHere(interaction, settings);
	await interaction.editReply({ ...reply, components: offer ? [shareButton(interaction.userId, request)] : [] });
}

/**
 * "Share in channel": posts a public copy of the owner's private reply as a new message. The press
 * is acknowledged as an update of the private message, which then loses its button: a press adds
 * no message of its own and cannot post duplicates.
 */
export async function onButton(interaction: ComponentInteraction, ctx: BotContext): Promise<void> {
	const [, action, ownerId, scope, days] = interaction.customId.split(':');
	if (action !== 'share' || !ownerId || !isStatsScope(scope) || !isChartDays(Number(days))) {
		throw new UserFacingError('stats.buttonOutdated');
	}
	if (interaction.userId !== ownerId) {
		throw new UserFacingError('stats.notOwner');
	}
	if (await replyIfCoolingDown(interaction, ctx, 'share')) return;
	const request = parseStatsRequest({ scope, days: Number(days) });
	const reply = await acknowledgeThen(
		() => interaction.deferUpdate(),
		async () => {
			// The member as they are now: roles and permissions may have changed since the reply.
			const settings = await settingsOf(ctx, interaction.guildId);
			requireSharePress(interaction, settings, request.scope);
			const locale = serverLanguage(settings, interaction.guildLocale);
			return statsReply(interaction, ctx, request, ownerId, locale);
		},
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

function statsReply(
	interaction: RepliableInteraction,
	ctx: BotContext,
	request: StatsRequest,
	userId: string,
	locale: string,
): Promise<StatsReply> {
	return showStats(ctx, { scope: request.scope, userId, guildId: interaction.guildId }, { ...request, locale });
}

/**
 * The private reply is edited first: after a defer, Discord turns the first follow-up into the
 * deferred (private) message itself, so only a follow-up sent after the edit is a new public message.
 */
async function postPublicly(interaction: RepliableInteraction, reply: StatsReply): Promise<void> {
	await interaction.editReply({ content: 'Posted in the channel.', embeds: [], components: [], files: [] });
	await interaction.followUp(reply, 'public');
}

function shareButton(ownerId: string, request: StatsRequest) {
	return new ActionRowBuilder<ButtonBuilder>()
		.addComponents(
			new ButtonBuilder()
				.setCustomId(`stats:share:${ownerId}:${request.scope}:${request.days}`)
				.setLabel('Share in channel')
				.setStyle(ButtonStyle.Secondary),
		)
		.toJSON();
}
