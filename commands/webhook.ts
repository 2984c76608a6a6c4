import { ActionRowBuilder, ModalBuilder, TextInputBuilder, TextInputStyle, time, TimestampStyles } from 'discord.js';
import { requireManageServer } from '../src/core/actor.js';
import { actorOf, requireGuild } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction, ModalInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { memberTranslator, type Translate } from '../src/i18n/index.js';
import { describeDeliveryStatus, describeWebhook } from '../src/webhooks/describe-webhook.js';
import {
	addWebhook,
	listWebhooks,
	MAX_WEBHOOK_URL_LENGTH,
	readWebhookOptions,
	removeWebhook,
	testWebhook,
	type WebhookListing,
} from '../src/webhooks/webhook-actions.js';
import { MAX_WEBHOOKS_PER_SERVER } from '../src/webhooks/webhook-record.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'webhook';

const URL_FIELD_ID = 'url';
/** Choice names are at most 100 characters. */
const MAX_CHOICE_NAME = 100;

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, 'webhook');
	const actor = actorOf(interaction);
	const t = memberTranslator(interaction);
	if (interaction.subcommand === 'add') {
		// Refused before the form, so nobody pastes a URL only to be turned away; the action checks again on submit.
		requireManageServer(actor, 'webhook');
		const { format, events } = readWebhookOptions({
			format: interaction.options.string('format'),
			events: interaction.options.string('events'),
		});
		// The URL is a secret (Slack's and Discord's are): typed into a form, never an option clients show and log.
		await interaction.showModal(urlModal(t, `webhook:add:${format}:${events}`));
		return;
	}
	await interaction.defer('private');
	if (interaction.subcommand === 'remove') {
		const removed = await removeWebhook(ctx, actor, guildId, interaction.options.string('webhook'));
		if (!removed) throw new UserFacingError('webhook.notFound');
		await interaction.editReply({ content: t('webhook.removed', { hint: removed.hint }) });
		return;
	}
	if (interaction.subcommand === 'test') {
		const { record, entry, enabledAgain } = await testWebhook(
			ctx,
			actor,
			guildId,
			interaction.options.string('webhook'),
		);
		// The status code only: a receiver's body could hold anything, and is never shown.
		const content =
			entry.status === null
				? t('webhook.testNoStatus', { hint: record.hint, failure: describeDeliveryStatus(t, entry) })
				: t('webhook.testResult', { hint: record.hint, status: String(entry.status) });
		await interaction.editReply({ content: enabledAgain ? `${content}\n${t('webhook.enabledAgain')}` : content });
		return;
	}
	const listing = await listWebhooks(ctx, actor, guildId);
	await interaction.editReply({ content: describeListing(t, listing) });
}

export async function onModal(interaction: ModalInteraction, ctx: BotContext): Promise<void> {
	const guildId = requireGuild(interaction, 'webhook');
	const [, action, format = null, events = null] = interaction.customId.split(':');
	if (action !== 'add') return;
	await interaction.defer('private'); // resolving the host calls the network
	const url = interaction.field(URL_FIELD_ID);
	if (url === null) throw new UserFacingError('webhook.urlFieldMissing');
	const t = memberTranslator(interaction);
	const { record, secret } = await addWebhook(ctx, actorOf(interaction), {
		guildId,
		guildLocale: interaction.guildLocale,
		format,
		events,
		url,
	});
	const added = t('webhook.added', {
		hint: record.hint,
		format: t(`webhook.formats.${record.format}`),
		events: t(`webhook.events.${record.events}`),
	});
	// The secret is shown once, in this private reply, and never again.
	await interaction.editReply({ content: secret ? `${added}\n${t('webhook.secretOnce', { secret })}` : added });
}

export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name !== 'webhook' || interaction.guildId === null) return interaction.respond([]);
	const { userId, memberPermissions } = interaction;
	const actor = actorOf({ userId, memberPermissions, memberRoles: null });
	const t = memberTranslator(interaction);
	const listing = await listWebhooks(ctx, actor, interaction.guildId).catch((error: unknown) => {
		if (error instanceof UserFacingError) return [];
		throw error;
	});
	const typed = interaction.focused.value.trim().toLowerCase();
	const choices = listing
		.map(({ record }) => ({
			name: t('webhook.choice', { hint: record.hint, format: t(`webhook.formats.${record.format}`) }).slice(
				0,
				MAX_CHOICE_NAME,
			),
			value: record.id,
		}))
		.filter((choice) => typed === '' || choice.name.toLowerCase().includes(typed) || choice.value === typed);
	await interaction.respond(choices);
}

function urlModal(t: Translate, customId: string) {
	const input = new TextInputBuilder()
		.setCustomId(URL_FIELD_ID)
		.setLabel(t('webhook.urlLabel'))
		.setPlaceholder(t('webhook.urlPlaceholder'))
		.setStyle(TextInputStyle.Short)
		.setMinLength(10)
		.setMaxLength(MAX_WEBHOOK_URL_LENGTH)
		.setRequired(true);
	return new ModalBuilder()
		.setCustomId(customId)
		.setTitle(t('webhook.modalTitle'))
		.addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input))
		.toJSON();
}

function describeListing(t: Translate, listing: readonly WebhookListing[]): string {
	if (listing.length === 0) return t('webhook.listEmpty');
	const lines = [t('webhook.listHeader', { count: String(listing.length), max: String(MAX_WEBHOOKS_PER_SERVER) })];
	for (const { record, deliveries } of listing) {
		lines.push(`- ${describeWebhook(t, record)}`);
		const last = deliveries[0];
		if (last) {
			const when = time(Math.floor(last.at / 1000), TimestampStyles.RelativeTime);
			lines.push(`  ${t('webhook.lastDelivery', { event: last.type, status: describeDeliveryStatus(t, last), when })}`);
		}
	}
	return lines.join('\n');
}
