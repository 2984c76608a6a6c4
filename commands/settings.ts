import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { requireManageServer } from '../src/core/actor.js';
import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import type { CommandInteraction, ComponentInteraction } from '../src/discord/interaction.js';
import { describeChanges, describeSettings } from '../src/settings/describe-settings.js';
import { readSettingsOptions } from '../src/settings/read-options.js';
import { checkSettingsChange, resetSettings, setSettings, showSettings } from '../src/settings/settings-actions.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'settings';

/** A reset confirmation older than this asks to run `/settings reset` again. */
const CONFIRMATION_TTL_MS = 10 * 60_000;

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, 'settings');
	const actor = actorOf(interaction);
	const t = memberTranslator(interaction);
	const guildLocale = interaction.guildLocale;
	if (interaction.subcommand === 'reset') {
		// Refused before the question; the press is checked again by the action.
		requireManageServer(actor, 'settings');
		const issuedAt = Math.floor(interaction.createdAt / 1000);
		await interaction.reply({ content: t('settings.resetConfirm'), components: [confirmRow(t, issuedAt)] }, 'private');
		return;
	}
	if (interaction.subcommand === 'set') {
		const input = readSettingsOptions(interaction.options);
		// Checked before deferring: a refusal or a wrong option is answered at once, without a "thinking…" first.
		checkSettingsChange(actor, guildId, input);
		await interaction.defer('private');
		const { after, changed } = await setSettings(ctx, actor, guildId, input, { guildLocale });
		const lines = describeChanges(t, after, changed, guildLocale);
		await interaction.editReply({ content: [t('settings.updated'), ...lines].join('\n') });
		return;
	}
	await interaction.defer('private');
	const settings = await showSettings(ctx, actor, guildId);
	await interaction.editReply({ content: describeSettings(t, settings, guildLocale) });
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
	// The action checks Manage Server again on the press: it may have been taken away since the command.
	const guildId = requireGuild(interaction, 'settings');
	await resetSettings(ctx, actorOf(interaction), guildId, { guildLocale: interaction.guildLocale });
	await interaction.update({ content: t('settings.resetDone'), components: [] });
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
