import { auditActor } from '../src/actor.js';
import { actorOf } from '../src/discord/actor-of.js';
import { randomBytes } from 'node:crypto';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { memberTranslator, resolveLocale, translator } from '../src/i18n/index.js';
import { auditTime } from '../src/settings/audit.js';
import { fetchStatsFor } from '../src/stats/resolve-key.js';
import { describeAlertState, describeRule } from '../src/watch/describe.js';
import { ALERT_PERMISSIONS } from '../src/watch/permissions.js';
import { auditWatch, serverLocale, watchStoreOf } from '../src/watch/watch-context.js';
import {
	ALERT_THRESHOLDS,
	freshAlertState,
	isAlertKind,
	MAX_ALERTS_PER_SERVER,
	WATCH_SCHEMA_VERSION,
	type AlertKind,
	type AlertRecord,
} from '../src/watch/watch-record.js';
import { requireChannelPermissions, requireManageServer, requireServerKey } from './watch-checks.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'alert';

const COMMAND = 'alert';
const TEXT_CHANNEL_TYPES: readonly number[] = [0, 5];
const MAX_CHOICES = 25;
const ID_LENGTH = 4;

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction, COMMAND);
	if (interaction.subcommand === 'add') return add(interaction, ctx, guildId);
	if (interaction.subcommand === 'remove') return remove(interaction, ctx, guildId);
	return list(interaction, ctx, guildId);
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name !== 'id' || interaction.guildId === null) return interaction.respond([]);
	const t = memberTranslator(interaction);
	const locale = resolveLocale(interaction.locale);
	const typed = interaction.focused.value.toLowerCase();
	const records = await watchStoreOf(ctx).alerts.listServer(interaction.guildId);
	const choices = records.map((record) => ({
		name: `${record.id}: ${describeRule(t, locale, record)}`.slice(0, 100),
		value: record.id,
	}));
	await interaction.respond(
		choices.filter((choice) => choice.name.toLowerCase().includes(typed)).slice(0, MAX_CHOICES),
	);
}

async function add(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const kind = interaction.options.string('kind');
	if (!isAlertKind(kind)) throw new UserFacingError('watch.alert.invalidKind');
	const channel = interaction.options.channel('channel');
	if (!channel || (channel.type !== null && !TEXT_CHANNEL_TYPES.includes(channel.type))) {
		throw new UserFacingError('watch.alert.notTextChannel');
	}
	const threshold = readThreshold(kind, interaction.options.number('threshold'));
	await requireServerKey(ctx, guildId);
	await interaction.defer('private');
	await requireChannelPermissions(interaction, ctx, guildId, channel.id, ALERT_PERMISSIONS);
	if (kind === 'sends-milestone' || kind === 'joins-milestone') {
		// Also proves the key works; a milestone already passed would fire at once, about nothing new.
		const { snapshot } = await fetchStatsFor(ctx, { scope: 'server', userId: interaction.userId, guildId });
		const value = snapshot[kind === 'sends-milestone' ? 'sends' : 'joins'].allTime;
		if (value !== null && value >= threshold) throw new UserFacingError('watch.alert.milestonePassed', { value });
	}
	const watch = watchStoreOf(ctx);
	const record = await watch.withServerLock('alert', guildId, async () => {
		const existing = await watch.alerts.listServer(guildId);
		if (existing.length >= MAX_ALERTS_PER_SERVER) {
			throw new UserFacingError('watch.alert.tooMany', { max: MAX_ALERTS_PER_SERVER });
		}
		const taken = new Set(existing.map((alert) => alert.id));
		let id = newAlertId();
		while (taken.has(id)) id = newAlertId();
		const next: AlertRecord = {
			v: WATCH_SCHEMA_VERSION,
			id,
			guildId,
			channelId: channel.id,
			kind,
			threshold,
			createdBy: interaction.userId,
			createdAt: interaction.createdAt,
			guildLocale: interaction.guildLocale,
			paused: null,
			state: freshAlertState(),
		};
		await watch.alerts.put(next);
		return next;
	});
	const t = memberTranslator(interaction);
	const rule = describeRule(t, resolveLocale(interaction.locale), record);
	await interaction.editReply({
		content: t('watch.alert.added', {
			id: record.id,
			rule,
			channelId: channel.id,
			minutes: ctx.config.alertCheckMinutes,
		}),
	});
	const serverLanguage = await serverLocale(ctx, guildId, interaction.guildLocale);
	await auditWatch(
		ctx,
		guildId,
		{
			key: 'watch.audit.alertAdded',
			vars: {
				actor: auditActor(actorOf(interaction)),
				id: record.id,
				rule: describeRule(translator(serverLanguage), serverLanguage, record),
				channelId: channel.id,
				when: auditTime(),
			},
		},
		interaction.guildLocale,
	);
}

/** Whole numbers within the kind's range (DESIGN.md's table). */
function readThreshold(kind: AlertKind, value: number | null): number {
	const { min, max } = ALERT_THRESHOLDS[kind];
	if (value !== null && Number.isInteger(value) && value >= min && value <= max) return value;
	if (kind === 'sends-milestone' || kind === 'joins-milestone')
		throw new UserFacingError('watch.alert.invalidMilestone');
	throw new UserFacingError('watch.alert.invalidThreshold', { min, max });
}

function newAlertId(): string {
	return [...randomBytes(ID_LENGTH)].map((byte) => (byte % 36).toString(36)).join('');
}

async function remove(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const id = (interaction.options.string('id') ?? '').trim().toLowerCase();
	await interaction.defer('private');
	let removed = false;
	if (id !== '') {
		await watchStoreOf(ctx).alerts.update(guildId, id, (current) => {
			removed = current !== null;
			return current === null ? undefined : null;
		});
	}
	const t = memberTranslator(interaction);
	await interaction.editReply({ content: t(removed ? 'watch.alert.removed' : 'watch.alert.notFound', { id }) });
	if (!removed) return;
	await auditWatch(
		ctx,
		guildId,
		{ key: 'watch.audit.alertRemoved', vars: { actor: auditActor(actorOf(interaction)), id, when: auditTime() } },
		interaction.guildLocale,
	);
}

async function list(interaction: CommandInteraction, ctx: BotContext, guildId: string): Promise<void> {
	const t = memberTranslator(interaction);
	const locale = resolveLocale(interaction.locale);
	await interaction.defer('private');
	const records = await watchStoreOf(ctx).alerts.listServer(guildId);
	if (records.length === 0) {
		await interaction.editReply({ content: t('watch.alert.listEmpty') });
		return;
	}
	const lines = [
		t('watch.alert.listHeader', {
			count: records.length,
			max: MAX_ALERTS_PER_SERVER,
			minutes: ctx.config.alertCheckMinutes,
		}),
	];
	for (const record of records) {
		lines.push(
			t('watch.alert.listItem', {
				id: record.id,
				rule: describeRule(t, locale, record),
				channelId: record.channelId,
				state: describeAlertState(t, record),
			}),
		);
	}
	if (records.some((record) => record.paused)) lines.push(t('watch.alert.resumeHint'));
	await interaction.editReply({ content: lines.join('\n') });
}
