import { randomBytes } from 'node:crypto';
import { ComponentType } from 'discord.js';
import { lazyChild, type Logger } from '../logger.js';
import type { InteractionOutcome } from '../metrics/index.js';
import { describeExpectedError } from '../error-messages.js';
import { answerPrivately, isExpiredInteraction, logExpired, interactionOutcomeOf } from './error-boundary.js';
import type { CommandModule } from './command-module.js';
import type { BotContext } from './context.js';
import { memberTranslator, renderMessage } from '../i18n/index.js';
import { timeResponses, type ResponseTimes } from './timed-interaction.js';
import { type AnyInteraction, type AutocompleteInteraction, type RepliableInteraction } from './interaction.js';
import { UserFacingError } from '../errors.js';
import { createDigestLocaleTracker } from '../digests/digest-locale.js';

export interface InteractionRouter {
	handle(interaction: AnyInteraction): Promise<void>;
	/** Stops taking work and resolves when every reply in flight has finished (or after `timeoutMs`). */
	drain(timeoutMs: number): Promise<void>;
	readonly inFlight: number;
}

/** The one catch-all: routes by command name or custom id prefix and answers every failure privately. */
export function createRouter(modules: readonly CommandModule[], ctx: BotContext): InteractionRouter {
	const byName = new Map(modules.map((module) => [module.name, module]));
	const inFlight = new InFlight();
	const digestLocales = createDigestLocaleTracker(ctx);
	let draining = false;

	async function dispatch(interaction: RepliableInteraction, log: Logger): Promise<void> {
		const scoped = { ...ctx, log };
		if (interaction.kind === 'command') {
			const module = byName.get(interaction.commandName);
			if (!module) throw new Error(`no handler for /${interaction.commandName}`);
			return module.execute(interaction, scoped);
		}
		const module = byName.get(interaction.customId.split(':')[0] ?? '');
		if (interaction.kind === 'modal' && module?.onModal) return module.onModal(interaction, scoped);
		if (interaction.kind === 'component' && interaction.componentType === ComponentType.Button && module?.onButton) {
			return module.onButton(interaction, scoped);
		}
		throw new UserFacingError('errors.unsupported');
	}

	async function handleOne(interaction: AnyInteraction): Promise<void> {
		const log = lazyChild(ctx.log, () => ({
			requestId: interaction.id,
			interaction: describeInteraction(interaction),
			guildId: interaction.guildId,
			userId: interaction.userId,
		}));
		if (interaction.kind === 'autocomplete') return complete(interaction, log);
		if (draining) {
			await answerPrivately(interaction, memberTranslator(interaction)('errors.shuttingDown'), log);
			return;
		}
		const startedAt = Date.now();
		const timing = timeResponses(interaction);
		let failure: unknown = null;
		try {
			await dispatch(timing.interaction, log);
			log.debug({ ms: Date.now() - startedAt }, 'interaction answered');
		} catch (error) {
			failure = error;
			await answerFailure(timing.interaction, error, log);
		} finally {
			record(interaction, interactionOutcomeOf(failure), timing.times());
		}
		// After the answer, so no reply waits on it; shutdown does wait for it, as for a reply in flight.
		await digestLocales.seen(interaction.userId, interaction.locale).catch((error: unknown) => {
			log.warn({ err: error }, "could not keep the member's digest locale");
		});
	}

	async function answerFailure(interaction: RepliableInteraction, error: unknown, log: Logger): Promise<void> {
		if (isExpiredInteraction(error)) {
			logExpired(log, interaction.createdAt, error);
			return;
		}
		const expected = describeExpectedError(error);
		if (expected !== null) {
			log.info({ failure: (error as Error).name }, 'interaction ended with an expected failure');
			await answerPrivately(interaction, renderMessage(memberTranslator(interaction), expected), log);
			return;
		}
		const incidentId = randomBytes(4).toString('hex');
		log.error({ err: error, incidentId }, 'interaction failed unexpectedly');
		await answerPrivately(interaction, memberTranslator(interaction)('errors.incident', { incidentId }), log);
	}

	function record(interaction: RepliableInteraction, outcome: InteractionOutcome, times: ResponseTimes): void {
		// The command's name, never the custom id's arguments (they hold user ids); unknown names become `other`.
		const command =
			interaction.kind === 'command' ? interaction.commandName : (interaction.customId.split(':')[0] ?? '');
		ctx.metrics.interactions.inc({ command, outcome });
		if (times.ackSeconds !== null) ctx.metrics.ackSeconds.observe({ command }, times.ackSeconds);
		if (times.replySeconds !== null) ctx.metrics.replySeconds.observe({ command }, times.replySeconds);
	}

	/** Suggestions are best effort: a failure answers with no choices rather than an error. */
	async function complete(interaction: AutocompleteInteraction, log: Logger): Promise<void> {
		const module = byName.get(interaction.commandName);
		try {
			if (module?.onAutocomplete && !draining) await module.onAutocomplete(interaction, { ...ctx, log });
		} catch (error) {
			log.warn({ err: error }, 'autocomplete failed');
		}
		if (interaction.acknowledgement === null) await interaction.respond([]).catch(() => undefined);
	}

	return {
		get inFlight() {
			return inFlight.size;
		},
		handle(interaction) {
			return inFlight.track(
				handleOne(interaction).catch((error: unknown) => {
					ctx.log.error({ err: error }, 'router failed to answer an interaction');
				}),
			);
		},
		async drain(timeoutMs) {
			draining = true;
			await inFlight.settle(timeoutMs);
		},
	};
}

function describeInteraction(interaction: AnyInteraction): string {
	if (interaction.kind === 'command' || interaction.kind === 'autocomplete') {
		return `/${interaction.commandName}${interaction.subcommand ? ` ${interaction.subcommand}` : ''}`;
	}
	// Only the routing segments: a custom id never holds secrets, but the owner id is noise.
	return interaction.customId.split(':').slice(0, 2).join(':');
}

/** The interactions being answered, so shutdown can wait for them. */
export class InFlight {
	private readonly running = new Set<Promise<void>>();

	get size(): number {
		return this.running.size;
	}

	track(task: Promise<void>): Promise<void> {
		this.running.add(task);
		void task.finally(() => this.running.delete(task));
		return task;
	}

	/** Resolves when nothing is in flight any more, or at the deadline. */
	async settle(timeoutMs: number): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let timer: NodeJS.Timeout | undefined;
		// Interactions arriving meanwhile get a "restarting" reply, which is in flight too: wait for those as well.
		while (this.running.size > 0 && Date.now() < deadline) {
			const timeout = new Promise<void>((resolve) => {
				timer = setTimeout(resolve, deadline - Date.now());
			});
			await Promise.race([Promise.allSettled([...this.running]), timeout]);
			clearTimeout(timer);
		}
	}
}
