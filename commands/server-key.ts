import { auditActor } from '../src/actor.js';
import { actorOf } from '../src/discord/actor-of.js';
import { PermissionFlagsBits, time, TimestampStyles } from 'discord.js';
import type { Translate } from '../src/i18n/index.js';
import type { BotContext } from '../src/discord/context.js';
import { linkFailure } from '../src/error-messages.js';
import { keyModal, readKeyField } from '../src/discord/key-modal.js';
import { linkConfirmation } from '../src/discord/link-replies.js';
import { memberTranslator } from '../src/i18n/index.js';
import type { CommandInteraction, ModalInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import type { LinkStatus } from '../src/links/link-model.js';
import { sanitizeAccountName } from '../src/render/embed.js';
import { auditTime, postAudit } from '../src/settings/audit.js';
import { forgetHistoryAfterUnlink } from '../src/stats/forget-history.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'server-key';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireManageServer(interaction);
	const t = memberTranslator(interaction);
	if (interaction.subcommand === 'set') {
		await interaction.showModal(keyModal('server-key:submit', 'modals.serverKey.title', t));
		return;
	}
	await interaction.defer('private');
	if (interaction.subcommand === 'remove') {
		const link = await ctx.links.getServerLink(guildId).catch(() => null);
		const removed = await ctx.links.removeServerLink(guildId);
		if (removed) {
			await forgetHistoryAfterUnlink(ctx, link?.accountName ?? null);
			await postAudit(
				ctx,
				guildId,
				{ key: 'audit.serverKeyRemoved', vars: { actor: auditActor(actorOf(interaction)), when: auditTime() } },
				{ guildLocale: interaction.guildLocale },
			);
		}
		await interaction.editReply({ content: t(removed ? 'serverKey.removed' : 'serverKey.nothingToRemove') });
		return;
	}
	const status = await ctx.links.getServerLink(guildId);
	await interaction.editReply({ content: status ? describeServerLink(t, status) : t('serverKey.none') });
}

export async function onModal(interaction: ModalInteraction, ctx: BotContext): Promise<void> {
	// Checked again on submit: the default permission only hides the command, and roles can change meanwhile.
	const guildId = requireManageServer(interaction);
	await interaction.defer('private');
	const info = await ctx.links
		.linkServer(guildId, readKeyField(interaction), interaction.userId)
		.catch((error: unknown) => {
			throw linkFailure(error, 'server-key set');
		});
	await interaction.editReply({ content: linkConfirmation(memberTranslator(interaction), info, 'server') });
	await postAudit(
		ctx,
		guildId,
		{
			key: 'audit.serverKeySet',
			vars: { actor: auditActor(actorOf(interaction)), keyHint: info.keyHint, when: auditTime() },
		},
		{ guildLocale: interaction.guildLocale },
	);
}

/** A link no configured secret can open is as good as none: the admin must set the key again. */
function describeServerLink(t: Translate, status: LinkStatus): string {
	if (!status.readable) return t('errors.serverRelinkNeeded');
	const vars = {
		account: status.accountName === null ? '' : sanitizeAccountName(status.accountName),
		keyHint: status.keyHint,
		userId: status.linkedBy ?? '',
		when: time(Math.floor(status.linkedAt / 1000), TimestampStyles.RelativeTime),
	};
	const verified = status.verified && status.accountName !== null;
	const key = verified
		? status.linkedBy
			? 'serverKey.status'
			: 'serverKey.statusNoLinker'
		: status.linkedBy
			? 'serverKey.statusUnverified'
			: 'serverKey.statusUnverifiedNoLinker';
	return verified ? t(key, vars) : `${t(key, vars)}\n${t('serverKey.notVerifiedNote')}`;
}

/**
 * `default_member_permissions` is only a default that server owners can override per channel or
 * role, so Manage Server is checked here on every run.
 */
function requireManageServer(interaction: CommandInteraction | ModalInteraction): string {
	if (interaction.guildId === null) throw new UserFacingError('errors.guildOnly', { command: 'server-key' });
	if (((interaction.memberPermissions ?? 0n) & PermissionFlagsBits.ManageGuild) === 0n) {
		throw new UserFacingError('serverKey.manageServerRequired');
	}
	return interaction.guildId;
}
