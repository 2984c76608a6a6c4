import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { BotContext } from '../src/discord/context.js';
import { replyIfCoolingDown } from '../src/discord/cooldowns.js';
import type { CommandInteraction, ComponentInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import { describeForgotten, describeHeld } from '../src/privacy/describe-privacy.js';
import { forgetMember } from '../src/privacy/forget-member.js';
import { exportMember, showMember } from '../src/privacy/member-data.js';
import { privateLocale } from '../src/stats/public-locale.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'privacy';

/** How long the delete button works. */
export const CONFIRMATION_MS = 60_000;

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const t = memberTranslator(interaction);
	const now = ctx.now ?? Date.now;
	if (interaction.subcommand === 'delete') {
		const row = confirmRow(t, interaction.userId, now() + CONFIRMATION_MS);
		await interaction.reply({ content: t('privacy.confirm'), components: [row] }, 'private');
		return;
	}
	// Show and export walk the whole store: the cooldown of /stats keeps a member from repeating them quickly.
	if (await replyIfCoolingDown(interaction, ctx, 'privacy')) return;
	await interaction.defer('private');
	if (interaction.subcommand === 'export') {
		const exported = await exportMember(ctx, interaction.userId);
		await interaction.editReply({
			content: t('privacy.exportReady', { count: exported.records.length }),
			files: [
				{
					name: `adstats-my-data-${exported.generated_at.slice(0, 10)}.json`,
					data: Buffer.from(`${JSON.stringify(exported, null, 2)}\n`, 'utf8'),
					contentType: 'application/json; charset=utf-8',
				},
			],
		});
		return;
	}
	const held = await showMember(ctx, interaction.userId);
	const pageUrl = ctx.config.webPublicUrl ? `${ctx.config.webPublicUrl}/privacy` : null;
	await interaction.editReply({ content: describeHeld(t, held, privateLocale(interaction), pageUrl) });
}

/** `privacy:delete:<userId>:<expiresAt ms>` and `privacy:cancel`. */
export async function onButton(interaction: ComponentInteraction, ctx: BotContext): Promise<void> {
	const [, action, ownerId, expiresAt] = interaction.customId.split(':');
	const t = memberTranslator(interaction);
	if (action === 'cancel') {
		await interaction.update({ content: t('privacy.cancelled'), components: [] });
		return;
	}
	if (ownerId !== interaction.userId) throw new UserFacingError('privacy.notOwner');
	if (action !== 'delete' || !((ctx.now ?? Date.now)() <= Number(expiresAt))) {
		await interaction.update({ content: t('privacy.expired'), components: [] });
		return;
	}
	// Forgetting walks the whole store: acknowledged first, answered by editing the confirmation.
	await interaction.deferUpdate();
	const result = await forgetMember(ctx, interaction.userId);
	await interaction.editReply({ content: describeForgotten(t, result), components: [] });
}

function confirmRow(t: Translate, userId: string, expiresAt: number) {
	return new ActionRowBuilder<ButtonBuilder>()
		.addComponents(
			new ButtonBuilder()
				.setCustomId(`privacy:delete:${userId}:${expiresAt}`)
				.setLabel(t('buttons.deleteMyData'))
				.setStyle(ButtonStyle.Danger),
			new ButtonBuilder().setCustomId('privacy:cancel').setLabel(t('buttons.cancel')).setStyle(ButtonStyle.Secondary),
		)
		.toJSON();
}
