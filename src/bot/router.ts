import { randomBytes } from 'node:crypto';
import { DiscordAPIError, MessageFlags, type Interaction, type RepliableInteraction } from 'discord.js';
import type { CommandModule } from './command-module.js';
import type { BotContext } from './context.js';
import { describeExpectedError, MESSAGES } from './error-replies.js';
import type { Logger } from './logger.js';
import { UserFacingError } from './user-facing-error.js';

/** Discord errors that mean the interaction can no longer be answered: logged, never fatal. */
const EXPIRED_INTERACTION_CODES = new Set([10062, 40060, 50027, 10015]);

export interface InteractionRouter {
	handle(interaction: Interaction): Promise<void>;
	/** Stops taking work and resolves when every reply in flight has finished (or after `timeoutMs`). */
	drain(timeoutMs: number): Promise<void>;
	readonly inFlight: number;
}

/** The one catch-all: routes by command name or custom id prefix and answers every failure privately. */
export function createRouter(modules: readonly CommandModule[], ctx: BotContext): InteractionRouter {
	const byName = new Map(modules.map((module) => [module.definition.name, module]));
	const running = new Set<Promise<void>>();
	let draining = false;

	async function dispatch(interaction: Interaction, log: Logger): Promise<void> {
		if (interaction.isChatInputCommand()) {
			const module = byName.get(interaction.commandName);
			if (!module) throw new Error(`no handler for /${interaction.commandName}`);
			return module.execute(interaction, { ...ctx, log });
		}
		if (interaction.isModalSubmit() || interaction.isButton()) {
			const module = byName.get(interaction.customId.split(':')[0] ?? '');
			const handler = interaction.isModalSubmit() ? module?.onModal : module?.onButton;
			if (!module || !handler) throw new Error(`no handler for custom id ${interaction.customId}`);
			return handler.call(module, interaction as never, { ...ctx, log });
		}
		throw new UserFacingError('That action is not supported. Run `/help` to see what the bot can do.');
	}

	async function handleOne(interaction: Interaction): Promise<void> {
		if (!interaction.isRepliable()) return;
		const log = ctx.log.child({
			requestId: interaction.id,
			interaction: describeInteraction(interaction),
			guildId: interaction.guildId,
			userId: interaction.user.id,
		});
		if (draining) {
			await answerPrivately(interaction, MESSAGES.shuttingDown, log);
			return;
		}
		const startedAt = Date.now();
		try {
			await dispatch(interaction, log);
			log.debug({ ms: Date.now() - startedAt }, 'interaction answered');
		} catch (error) {
			if (isExpiredInteraction(error)) {
				logExpired(log, interaction, error);
				return;
			}
			const expected = describeExpectedError(error);
			if (expected !== null) {
				log.info({ failure: (error as Error).name }, 'interaction ended with an expected failure');
				await answerPrivately(interaction, expected, log);
				return;
			}
			const incidentId = randomBytes(4).toString('hex');
			log.error({ err: error, incidentId }, 'interaction failed unexpectedly');
			await answerPrivately(
				interaction,
				`Sorry, something went wrong on our side. If it keeps happening, tell the server's admins or the bot's host and quote incident \`${incidentId}\`.`,
				log,
			);
		}
	}

	return {
		get inFlight() {
			return running.size;
		},
		handle(interaction) {
			const task = handleOne(interaction).catch((error: unknown) => {
				ctx.log.error({ err: error }, 'router failed to answer an interaction');
			});
			running.add(task);
			void task.finally(() => running.delete(task));
			return task;
		},
		async drain(timeoutMs) {
			draining = true;
			const deadline = Date.now() + timeoutMs;
			let timer: NodeJS.Timeout | undefined;
			// Interactions arriving meanwhile get a "restarting" reply, which is in flight too: wait for those as well.
			while (running.size > 0 && Date.now() < deadline) {
				const timeout = new Promise<void>((resolve) => {
					timer = setTimeout(resolve, deadline - Date.now());
				});
				await Promise.race([Promise.allSettled([...running]), timeout]);
				clearTimeout(timer);
			}
		},
	};
}

function describeInteraction(interaction: RepliableInteraction): string {
	if (interaction.isChatInputCommand()) {
		const sub = interaction.options.getSubcommand(false);
		return `/${interaction.commandName}${sub ? ` ${sub}` : ''}`;
	}
	if (interaction.isMessageComponent() || interaction.isModalSubmit()) {
		// Only the routing segments: a custom id never holds secrets, but the owner id is noise.
		return interaction.customId.split(':').slice(0, 2).join(':');
	}
	return `type ${interaction.type}`;
}

/** Answers privately whatever state the interaction is in: reply first, or edit what was deferred. */
async function answerPrivately(interaction: RepliableInteraction, content: string, log: Logger): Promise<void> {
	try {
		if (interaction.isMessageComponent() && (interaction.deferred || interaction.replied)) {
			// Acknowledged as an update of the message holding the button: keep that message, add a private note.
			await interaction.followUp({ content, flags: MessageFlags.Ephemeral });
		} else if (interaction.deferred || interaction.replied) {
			await interaction.editReply({ content, embeds: [], components: [], attachments: [] });
		} else {
			await interaction.reply({ content, flags: MessageFlags.Ephemeral });
		}
	} catch (error) {
		if (isExpiredInteraction(error)) logExpired(log, interaction, error);
		else log.error({ err: error }, 'could not send the error reply');
	}
}

function isExpiredInteraction(error: unknown): error is DiscordAPIError {
	return error instanceof DiscordAPIError && EXPIRED_INTERACTION_CODES.has(Number(error.code));
}

function logExpired(log: Logger, interaction: RepliableInteraction, error: DiscordAPIError): void {
	log.warn(
		{ discordCode: error.code, latencyMs: Date.now() - interaction.createdTimestamp },
		'interaction could not be answered any more',
	);
}
