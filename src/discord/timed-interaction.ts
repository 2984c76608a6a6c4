import type { RepliableInteraction } from './interaction.js';

/** Seconds from receipt; null while nothing of that kind has reached Discord. */
export interface ResponseTimes {
	/** The first response Discord took (reply, defer, update, modal). */
	ackSeconds: number | null;
	/** The last response that carried the answer (reply, update, edit, follow-up, modal); a defer does not. */
	replySeconds: number | null;
}

const FIRST_RESPONSES = ['reply', 'defer', 'showModal', 'update', 'deferUpdate'] as const;
const ANSWERS = new Set(['reply', 'showModal', 'update', 'editReply', 'followUp']);
const RESPONSES = [...FIRST_RESPONSES, 'editReply', 'followUp'] as const;

/**
 * The interaction with each response method timed once it resolved, whichever transport sends it. The
 * interaction's own state (acknowledgement, options) is read through, so handlers see no difference.
 */
export function timeResponses<T extends RepliableInteraction>(
	interaction: T,
	receivedAt = performance.now(),
): { interaction: T; times(): ResponseTimes } {
	const times: ResponseTimes = { ackSeconds: null, replySeconds: null };
	const timed = Object.create(interaction) as T;
	const methods = interaction as unknown as Record<string, unknown>;
	for (const name of RESPONSES) {
		const send = methods[name];
		if (typeof send !== 'function') continue;
		Object.defineProperty(timed, name, {
			value: async (...args: unknown[]) => {
				await (send as (...a: unknown[]) => Promise<void>).apply(interaction, args);
				const seconds = (performance.now() - receivedAt) / 1000;
				if (times.ackSeconds === null && (FIRST_RESPONSES as readonly string[]).includes(name)) {
					times.ackSeconds = seconds;
				}
				if (ANSWERS.has(name)) times.replySeconds = seconds;
			},
		});
	}
	return { interaction: timed, times: () => ({ ...times }) };
}
