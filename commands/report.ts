import { time, TimestampStyles } from 'discord.js';
import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { memberTranslator } from '../src/i18n/index.js';
import { describePause, describeSchedule } from '../src/reports/describe-report.js';
import {
	addReport,
	listReportChannels,
	listReports,
	removeReport,
	type ReportInput,
} from '../src/reports/report-actions.js';
import type { ReportChannel } from '../src/reports/report-channels.js';
import { matchTimeZones } from '../src/reports/schedule.js';
import { withoutBudgetWait } from '../src/rest-job.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'report';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, 'report');
	if (interaction.subcommand === 'add') return add(interaction, ctx, guildId);
	if (interaction.subcommand === 'remove') return remove(interaction, ctx, guildId);
	return list(interaction, ctx, guildId);
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name === 'timezone') {
		await interaction.respond(matchTimeZones(interaction.focused.value).map((name) => ({ name, value: name })));
		return;
	}
	if (interaction.focused?.name !== 'channel' || interaction.guildId === null) return interaction.respond([]);
	// An autocomplete carries no roles; Manage Server is all this list asks.
	const { userId, memberPermissions } = interaction;
	const actor = actorOf({ userId, memberPermissions, memberRoles: null });
	// The list names the server's report channels: only for those who may run /report.
	// The autocomplete's answer is its only response: channel names only from calls the budget can make at once.
	const guildId = interaction.guildId;
	const channels = await withoutBudgetWait(async () => listReportChannels(ctx, actor, guildId)).catch(
		(error: unknown) => {
			if (error instanceof UserFacingError) return [];
			throw error;
		},
	);
	await interaction.respond(channelChoices(interaction, channels, interaction.focused.value));
}

/** Choice names are plain text (no mentions) of at most 100 characters; the value is the channel id. */
const MAX_CHOICE_NAME = 100;

/** The server's reports as `/report remove` offers them: by channel name, a deleted channel's included. */
function channelChoices(
	interaction: AutocompleteInteraction,
	channels: readonly ReportChannel[],
	typed: string,
): { name: string; value: string }[] {
	const t = memberTranslator(interaction);
	const wanted = typed.trim().replace(/^#/, '').toLowerCase();
	return channels
		.map(({ record, state, name }) => {
			const schedule = describeSchedule(t, record);
			const label =
				state === 'deleted'
					? t('reportRemove.choiceDeleted', { channelId: record.channelId, schedule })
					: name === null
						? t('reportRemove.choiceUnnamed', { channelId: record.channelId, schedule })
						: t('reportRemove.choice', { name, schedule });
			return { name: label.slice(0, MAX_CHOICE_NAME), value: record.channelId };
		})
		.filter((choice) => wanted === '' || choice.name.toLowerCase().includes(wanted) || choice.value.includes(wanted));
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const t = memberTranslator(interaction);
	const input = readReportOptions(interaction);
	// Building the preview takes the stats and a chart: longer than Discord waits for a first answer.
	await interaction.defer('private');
	const { record, previous, post } = await addReport(ctx, actorOf(interaction), guildId, input);
	const key = previous === null ? 'report.added' : previous.paused ? 'report.resumed' : 'report.replaced';
	const confirmation = t(key, { channelId: record.channelId, schedule: describeSchedule(t, record) });
	await interaction.editReply({
		content: `${confirmation}\n\n${post.content}`,
		embeds: post.embeds,
		files: post.files,
	});
}

function readReportOptions(interaction: CommandInteraction): ReportInput {
	const { options } = interaction;
	const channel = options.channel('channel');
	return {
		channel: channel && { id: channel.id, type: channel.type },
		every: options.string('every'),
		hour: options.integer('hour'),
		timezone: options.string('timezone'),
		weekday: options.string('weekday'),
		// Discord sends the bot's permissions for the channel the command was typed in only.
		botPermissionsInChannel: channel?.id === interaction.channelId ? interaction.appPermissions : null,
		guildLocale: interaction.guildLocale,
	};
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	// A string since the channel may be deleted, which Discord's channel picker no longer offers. A client
	// with the older registration still sends a channel option: its value is the id too.
	const typed = interaction.options.string('channel') ?? interaction.options.channel('channel')?.id ?? '';
	await interaction.defer('private');
	const { channelId, removed } = await removeReport(ctx, actorOf(interaction), guildId, typed, interaction.guildLocale);
	await interaction.editReply({
		content: memberTranslator(interaction)(removed ? 'report.removed' : 'report.notFound', { channelId }),
	});
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const t = memberTranslator(interaction);
	await interaction.defer('private');
	// The next times count from the moment Discord stamped the command, as the list always has.
	const atCommand = { ...ctx, now: () => interaction.createdAt };
	const { reports, counted, max } = await listReports(atCommand, actorOf(interaction), guildId);
	if (reports.length === 0) {
		await interaction.editReply({ content: t('report.listEmpty') });
		return;
	}
	const lines = [t('report.listHeader', { count: counted, max })];
	for (const { record, pause, nextDue } of reports) {
		const schedule = describeSchedule(t, record);
		if (pause) {
			lines.push(
				t('report.listItemPaused', { channelId: record.channelId, schedule, reason: describePause(t, pause) }),
			);
			continue;
		}
		const next = nextDue === null ? '—' : time(Math.floor(nextDue / 1000), TimestampStyles.LongDateTime);
		lines.push(t('report.listItem', { channelId: record.channelId, schedule, next }));
	}
	if (reports.some((report) => report.resumable)) lines.push(t('report.resumeHint'));
	if (reports.some((report) => !report.counted)) lines.push(t('reportRemove.goneHint', { max }));
	await interaction.editReply({ content: lines.join('\n') });
}
