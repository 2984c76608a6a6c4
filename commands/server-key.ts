import { time, TimestampStyles } from 'discord.js';
import { requireManageServer } from '../src/core/actor.js';
import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import { keyModal, readKeyField } from '../src/discord/key-modal.js';
import { linkConfirmation } from '../src/discord/link-replies.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import type { CommandInteraction, ModalInteraction } from '../src/discord/interaction.js';
import type { LinkStatus } from '../src/links/link-model.js';
import { sanitizeAccountName } from '../src/render/embed.js';
import { removeServerKey, serverKeyStatus, setServerKey } from '../src/stats/server-key-actions.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'server-key';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, 'server-key');
	const actor = actorOf(interaction);
	const t = memberTranslator(interaction);
	if (interaction.subcommand === 'set') {
		// Refused before the form, so nobody pastes a key only to be turned away; the action checks again on submit.
		requireManageServer(actor, 'server-key');
		await interaction.showModal(keyModal('server-key:submit', 'modals.serverKey.title', t));
		return;
	}
	await interaction.defer('private');
	if (interaction.subcommand === 'remove') {
		const { removed } = await removeServerKey(ctx, actor, guildId, { guildLocale: interaction.guildLocale });
		await interaction.editReply({ content: t(removed ? 'serverKey.removed' : 'serverKey.nothingToRemove') });
		return;
	}
	const status = await serverKeyStatus(ctx, actor, guildId);
	await interaction.editReply({ content: status ? describeServerLink(t, status) : t('serverKey.none') });
}

export async function onModal(interaction: ModalInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, 'server-key');
	await interaction.defer('private'); // verifying the key calls the network
	const info = await setServerKey(ctx, actorOf(interaction), guildId, readKeyField(interaction), {
		guildLocale: interaction.guildLocale,
	});
	await interaction.editReply({ content: linkConfirmation(memberTranslator(interaction), info, 'server') });
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
