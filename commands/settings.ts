import { auditActor } from '../src/actor.js';
import { actorOf } from '../src/discord/actor-of.js';
import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { translator, type Translate } from '../src/i18n/index.js';
import type { BotContext } from '../src/discord/context.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction, ComponentInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { hasManageServer } from '../src/settings/access.js';
import { auditTime, postAudit } from '../src/settings/audit.js';
import { settingsWithDeletionsApplied } from '../src/settings/check-resources.js';
import { describeChanges, describeSettings } from '../src/settings/describe-settings.js';
import { serverLanguage } from '../src/settings/language.js';
import { readSettingsChange } from '../src/settings/read-options.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'settings';

/** A reset confirmation older than this asks to run `/settings reset` again. */
const CONFIRMATION_TTL_MS = 10 * 60_000;

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction);
	const t = memberTranslator(interaction);
	if (interaction.subcommand === 'reset') {
		const issuedAt = Math.floor(interaction.createdAt / 1000);
		await interaction.reply({ content: t('settings.resetConfirm'), components: [confirmRow(t, issuedAt)] }, 'private');
		return;
	}
	if (interaction.subcommand === 'set') {
		// Read before deferring: a wrong option is answered at once, without a "thinking…" first.
		const { change, changed } = readSettingsChange(interaction.options);
		await interaction.defer('private');
		const { after } = await ctx.settings.update(guildId, change);
		const lines = describeChanges(t, after, changed, interaction.guildLocale);
		await interaction.editReply({ content: [t('settings.updated'), ...lines].join('\n') });
		const tp = translator(serverLanguage(after, interaction.guildLocale));
		await postAudit(
			ctx,
			guildId,
			{
				key: 'audit.settingsChanged',
				vars: {
					actor: auditActor(actorOf(interaction)),
					when: auditTime(interaction.createdAt),
					changes: describeChanges(tp, after, changed, interaction.guildLocale).join(', '),
				},
			},
			{ guildLocale: interaction.guildLocale, settings: after },
		);
		return;
	}
	await interaction.defer('private');
	const settings = await settingsWithDeletionsApplied(ctx, guildId, await ctx.settings.get(guildId));
	await interaction.editReply({ content: describeSettings(t, settings, interaction.guildLocale) });
}

/** The reset confirmation's buttons: `settings:reset:<issuedAt>` and `settings:cancel`. */
export async function onButton(interaction: ComponentInteraction, ctx: BotContext): Promise<void> {
	const [, action, issuedAt] = interaction.customId.split(':');
	const t = memberTranslator(interaction);
	if (action === 'cancel') {
		await interaction.update({ content: t('settings.resetCancelled'), components: [] });
		return;
	}
	if (action !== 'reset' || !issuedAt || Date.now() - Number(issuedAt) * 1000 > CONFIRMATION_TTL_MS) {
		await interaction.update({ content: t('settings.resetOutdated'), components: [] });
		return;
	}
	// Checked again on the press: Manage Server may have been taken away since the command.
	const guildId = requireManageServer(interaction);
	const before = await ctx.settings.reset(guildId);
	await interaction.update({ content: t('settings.resetDone'), components: [] });
	// The line goes where the audit channel was before the reset, which unset it.
	await postAudit(
		ctx,
		guildId,
		{
			key: 'audit.settingsReset',
			vars: { actor: auditActor(actorOf(interaction)), when: auditTime(interaction.createdAt) },
		},
		{ guildLocale: interaction.guildLocale, settings: before },
	);
}

function confirmRow(t: Translate, issuedAt: number) {
	return new ActionRowBuilder<ButtonBuilder>()
		.addComponents(
			new ButtonBuilder()
				.setCustomId(`settings:reset:${issuedAt}`)
				.setLabel(t('buttons.confirmReset'))
				.setStyle(ButtonStyle.Danger),
			new ButtonBuilder().setCustomId('settings:cancel').setLabel(t('buttons.cancel')).setStyle(ButtonStyle.Secondary),
		)
		.toJSON();
}

/**
 * `default_member_permissions` is only a default that server owners can override per channel or
 * role, so Manage Server is checked here on every run and every press.
 */
function requireManageServer(interaction: CommandInteraction | ComponentInteraction): string {
	if (interaction.guildId === null) throw new UserFacingError('errors.guildOnly', { command: 'settings' });
	if (!hasManageServer(interaction)) throw new UserFacingError('errors.manageServerRequired', { command: 'settings' });
	return interaction.guildId;
}
