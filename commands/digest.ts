import { time, TimestampStyles } from 'discord.js';
import { actorOf } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { describeDigestSchedule } from '../src/digests/describe-digest.js';
import { digestArrival, setDigest, showDigest, type DigestStatus } from '../src/digests/digest-actions.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import { matchTimeZones } from '../src/reports/schedule.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'digest';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const t = memberTranslator(interaction);
	await interaction.defer('private');
	const actor = actorOf(interaction);
	// The interaction's locale is remembered with the digest: the DM is written in it.
	const locale = interaction.locale;
	if (interaction.subcommand === 'on') {
		const { options } = interaction;
		const status = await setDigest(ctx, actor, {
			enabled: true,
			weekday: options.string('weekday'),
			hour: options.integer('hour'),
			timezone: options.string('timezone'),
			locale,
		});
		const schedule = describeDigestSchedule(t, status.record!);
		await interaction.editReply({
			content: `${t('digest.turnedOn', { schedule, next: nextDigest(t, status) })}\n${t('digest.dmHint')}`,
		});
		return;
	}
	if (interaction.subcommand === 'off') {
		const { record } = await setDigest(ctx, actor, { enabled: false, locale });
		await interaction.editReply({ content: t(record === null ? 'digest.wasOff' : 'digest.turnedOff') });
		return;
	}
	await interaction.editReply({ content: describeStatus(t, await showDigest(ctx, actor, { locale })) });
}

export async function onAutocomplete(interaction: AutocompleteInteraction): Promise<void> {
	if (interaction.focused?.name !== 'timezone') return interaction.respond([]);
	await interaction.respond(matchTimeZones(interaction.focused.value).map((zone) => ({ name: zone, value: zone })));
}

/** Discord shows a timestamp in each reader's own time zone and language. */
const when = (at: number | null) => (at === null ? '—' : time(Math.floor(at / 1000), TimestampStyles.LongDateTime));

/** The stretch of minutes the next digest arrives in: the member's part of the hour, not its top. */
function nextDigest(t: Translate, { record, nextAt }: DigestStatus): string {
	if (record === null || nextAt === null) return '—';
	const { from, to } = digestArrival(record, nextAt);
	return t('digest.nextBetween', {
		from: when(from),
		to: time(Math.floor(to / 1000), TimestampStyles.ShortTime),
	});
}

function describeStatus(t: Translate, status: DigestStatus): string {
	const { record } = status;
	if (record === null) return t('digest.showOff');
	const lines: string[] = [];
	if (record.enabled) {
		lines.push(t('digest.showOn', { schedule: describeDigestSchedule(t, record), next: nextDigest(t, status) }));
	} else if (record.stopped) {
		lines.push(t('digest.showStopped', { when: when(record.stopped.at) }));
	} else {
		lines.push(t('digest.showOff'));
	}
	if (record.lastSentAt !== null) lines.push(t('digest.lastSent', { when: when(record.lastSentAt) }));
	return lines.join('\n');
}
