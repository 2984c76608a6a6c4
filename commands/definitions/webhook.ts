import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';
import { WEBHOOK_EVENT_CHOICES, WEBHOOK_FORMATS } from '../../src/webhooks/webhook-record.js';
import { described, localizedChoices } from './localized.js';

export const definition = described(new SlashCommandBuilder(), 'webhook.commands.description')
	.setName('webhook')
	.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
	.setContexts(InteractionContextType.Guild)
	.addSubcommand((sub) =>
		// The URL is not an option: it is typed into the form the command opens.
		described(sub, 'webhook.commands.add')
			.setName('add')
			.addStringOption((option) =>
				described(option, 'webhook.commands.format')
					.setName('format')
					.addChoices(...localizedChoices(WEBHOOK_FORMATS, (format) => `webhook.formats.${format}`)),
			)
			.addStringOption((option) =>
				described(option, 'webhook.commands.events')
					.setName('events')
					.addChoices(...localizedChoices(WEBHOOK_EVENT_CHOICES, (events) => `webhook.events.${events}`)),
			),
	)
	.addSubcommand((sub) =>
		described(sub, 'webhook.commands.remove')
			.setName('remove')
			.addStringOption((option) =>
				described(option, 'webhook.commands.webhook')
					.setName('webhook')
					.setRequired(true)
					.setMaxLength(100)
					.setAutocomplete(true),
			),
	)
	.addSubcommand((sub) => described(sub, 'webhook.commands.list').setName('list'))
	.addSubcommand((sub) =>
		described(sub, 'webhook.commands.test')
			.setName('test')
			.addStringOption((option) =>
				described(option, 'webhook.commands.webhook')
					.setName('webhook')
					.setRequired(true)
					.setMaxLength(100)
					.setAutocomplete(true),
			),
	);
