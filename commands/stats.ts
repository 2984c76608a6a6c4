import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { replyIfCoolingDown } from '../src/discord/cooldowns.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { ComponentInteraction, CommandInteraction, RepliableInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { mayPostHere } from '../src/settings/access.js';
import type { ServerSettings } from '../src/settings/settings-record.js';
import { requireScopeAllowed, requireSharePress, settingsOf, shareDestination } from '../src/settings/stats-access.js';
import { privateLocale, publicLocale } from '../src/stats/public-locale.js';
import { completeStatsRequest, parseStatsOptions, parseStatsRequest, type StatsRequest } from '../src/stats/request.js';
import { isStatsDays, isStatsMetric } from '../src/stats-options.js';
import { isStatsScope } from '../src/stats-options.js';
import { showStats, type StatsDeps } from '../src/stats/show-stats.js';
import { notesForTarget } from '../src/notes/note-store.js';
import { embedGoalsFor } from '../src/goals/goal-embed.js';
import { withUserKeyRead } from '../src/stats/resolve-key.js';
import { clockOf } from '../src/core/actor.js';
import { utcDateOf } from '../src/history/utc-days.js';
import { isRealUtcDay } from '../src/stats/date-range.js';
import type { StatsReply } from '../src/stats/stats-reply.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'stats';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	// Checked once, before any store is read: a wrong option is answered at once.
	const asked = parseStatsOptions({
		scope: interaction.options.string('scope'),
		days: interaction.options.integer('days'),
		metric: interaction.options.string('metric'),
		from: interaction.options.string('from'),
		to: interaction.options.string('to'),
		today: utcDateOf(clockOf(ctx)()),
	});
	const share = interaction.options.boolean('share') ?? false;
	if (await replyIfCoolingDown(interaction, ctx, 'stats')) return;
	// Deferred privately even when sharing, so any failure or refusal stays private.
	const { settings, request, destination, reply } = await acknowledgeThen(
		() => interaction.defer('private'),
		async () => {
			// The member's own link is read beside the defer, not after the settings.
			const links = asked.scope === 'me' ? withUserKeyRead(ctx.links, interaction.userId) : ctx.links;
			const settings = await settingsOf(ctx, interaction.guildId);
			const request = completeStatsRequest(asked, settings);
			requireScopeAllowed(interaction, settings, request.scope);
			const destination = share ? shareDestination(interaction, settings) : null;
			const isPublic = destination?.kind === 'public';
			const reply = await statsReply(
				interaction,
				{ ...ctx, links },
				request,
				interaction.userId,
				isPublic ? settings : null,
			);
			return { settings, request, destination, reply };
		},
	);
	if (destination?.kind === 'public') {
		await postPublicly(interaction, reply);
		return;
	}
	if (destination?.kind === 'private') {
		const t = memberTranslator(interaction);
		const content = t('refusal.shareChannelPrivateCopy', { channelId: destination.channelId });
		await interaction.editReply({ ...reply, content, components: [] });
		return;
	}
	// A share button in a DM would post to the same private conversation, and one the rules would refuse is
	// noise: offer it only where a press could post now. The press is checked again.
	const offer = interaction.guildId !== null && mayPostHere(interaction, settings);
	await interaction.editReply({ ...reply, components: offer ? [shareButton(interaction, request)] : [] });
}

/**
 * "Share in channel": posts a public copy of the owner's private reply as a new message, in the server's
 * language. The press is acknowledged as an update of the private message, which then loses its button: a
 * press adds no message of its own and cannot post duplicates.
 */
export async function onButton(interaction: ComponentInteraction, ctx: BotContext): Promise<void> {
	// Buttons from before `metric` existed carry five parts and showed sends; a chosen range adds its two days.
	const [, action, ownerId, scope, days, metric = 'sends', from, to] = interaction.customId.split(':');
	if (action !== 'share' || !ownerId || !isStatsScope(scope) || !isStatsDays(Number(days)) || !isStatsMetric(metric)) {
		throw new UserFacingError('stats.buttonOutdated');
	}
	const range = from && to && isRealUtcDay(from) && isRealUtcDay(to) && from <= to ? { from, to } : null;
	if (interaction.userId !== ownerId) {
		throw new UserFacingError('stats.notOwner');
	}
	if (await replyIfCoolingDown(interaction, ctx, 'share')) return;
	// The range the reply showed, as it was checked then: a share the next day still posts those days.
	const request = { ...parseStatsRequest({ scope, days: Number(days), metric }), ...(range ? { range } : {}) };
	const reply = await acknowledgeThen(
		() => interaction.deferUpdate(),
		async () => {
			// The member as Discord describes them with this press: roles may have changed since the reply.
			const settings = await settingsOf(ctx, interaction.guildId);
			requireSharePress(interaction, settings, request.scope);
			return statsReply(interaction, ctx, request, ownerId, settings);
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

/**
 * A public copy (given the server's settings) is worded for the channel, in the server's language, and names
 * who posted it; a private one (null) follows the member's language.
 */
function statsReply(
	interaction: RepliableInteraction,
	ctx: StatsDeps,
	request: StatsRequest,
	userId: string,
	publicFor: ServerSettings | null,
): Promise<StatsReply> {
	const isPublic = publicFor !== null;
	const target = { scope: request.scope, userId, guildId: interaction.guildId };
	return showStats(
		ctx,
		target,
		{
			days: request.days,
			range: request.range ?? null,
			metric: request.metric,
			locale: publicFor ? publicLocale(interaction, publicFor) : privateLocale(interaction),
			sharedBy: isPublic ? userId : null,
		},
		embedGoalsFor(ctx, target),
		notesForTarget(ctx, target),
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

/** The row as Discord's JSON: discord.js's builders validate every field again on each reply, for a fixed shape. */
function shareButton(
	interaction: RepliableInteraction,
	request: StatsRequest,
): APIActionRowComponent<APIButtonComponent> {
	const { scope, days, metric, range } = request;
	const rangePart = range ? `:${range.from}:${range.to}` : '';
	return {
		type: ComponentType.ActionRow,
		components: [
			{
				type: ComponentType.Button,
				custom_id: `stats:share:${interaction.userId}:${scope}:${days}:${metric}${rangePart}`,
				label: memberTranslator(interaction)('buttons.share'),
				style: ButtonStyle.Secondary,
			},
		],
	};
}
