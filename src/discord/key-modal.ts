import {
	ActionRowBuilder,
	ModalBuilder,
	TextInputBuilder,
	TextInputStyle,
	type APIModalInteractionResponseCallbackData,
} from 'discord.js';
import { MIN_API_KEY_LENGTH } from '../api-key.js';
import type { Translate } from '../i18n/index.js';
import type { ModalInteraction } from './interaction.js';
import { UserFacingError } from '../errors.js';

const KEY_FIELD_ID = 'api-key';
/** Discord's own cap for a text input; the link store applies the real key rules after the submit. */
const MAX_FIELD_LENGTH = 4000;

/** The modal that collects an API key: a key is never a slash-command option, which clients show and log. */
export function keyModal(
	customId: string,
	title: 'modals.link.title' | 'modals.serverKey.title',
	t: Translate,
): APIModalInteractionResponseCallbackData {
	const input = new TextInputBuilder()
		.setCustomId(KEY_FIELD_ID)
		.setLabel(t('modals.key.label'))
		.setPlaceholder(t('modals.key.placeholder'))
		.setStyle(TextInputStyle.Short)
		.setMinLength(MIN_API_KEY_LENGTH)
		.setMaxLength(MAX_FIELD_LENGTH)
		.setRequired(true);
	return new ModalBuilder()
		.setCustomId(customId)
		.setTitle(t(title))
		.addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input))
		.toJSON();
}

/** The pasted key as submitted (validation belongs to the link store). */
export function readKeyField(interaction: ModalInteraction): string {
	const value = interaction.field(KEY_FIELD_ID);
	if (value === null) {
		throw new UserFacingError('errors.keyFieldMissing');
	}
	return value;
}
