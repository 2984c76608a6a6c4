import type { RepliableInteraction } from './interaction.js';

/** Seconds from receipt; null while nothing of that kind has reached Discord. */
export interface ResponseTimes {
	/** The first response Discord took (reply, defer, update, modal). */
	ackSeconds: number | null;
	/** The last response that carried the answer (reply, update, edit, follow-up, modal); a defer does not. */
	replySeconds: number | null;
}

const FIRST = ['reply', 'defer', 'showModal', 'update', 'deferUpdate'] as const;
const RESPONSES = [...FIRST, 'editReply', 'followUp'] as const;
const FIRST_RESPONSES = new Set<string>(FIRST);
const ANSWERS = new Set<string>(['reply', 'showModal', 'update', 'editReply', 'followUp']);

const TIMING = Symbol('timing');

interface Timing {
	inner: Record<string, unknown>;
	receivedAt: number;
	times: ResponseTimes;
}

type Timed = { [TIMING]: Timing };

/** One timed method per response kind, shared by every interaction (each reads its own timing through `this`). */
const TIMED_METHODS = Object.fromEntries(
	RESPONSES.map((name) => [
		name,
		async function timedResponse(this: Timed, ...args: unknown[]): Promise<void> {
			const timing = this[TIMING];
			await (timing.inner[name] as (...a: unknown[]) => Promise<void>).apply(timing.inner, args);
			const seconds = (performance.now() - timing.receivedAt) / 1000;
			if (timing.times.ackSeconds === null && FIRST_RESPONSES.has(name)) timing.times.ackSeconds = seconds;
			if (ANSWERS.has(name)) timing.times.replySeconds = seconds;
		},
	]),
);

/**
 * The interaction with each response method timed once it resolved, whichever transport sends it. The
 * interaction's own state (acknowledgement, options) is read through, so handlers see no difference.
 */
export function timeResponses<T extends RepliableInteraction>(
	interaction: T,
	receivedAt = performance.now(),
): { interaction: T; times(): ResponseTimes } {
	const inner = interaction as unknown as Record<string, unknown>;
	const times: ResponseTimes = { ackSeconds: null, replySeconds: null };
	const timed = Object.create(interaction) as Record<PropertyKey, unknown>;
	timed[TIMING] = { inner, receivedAt, times } satisfies Timing;
	for (const name of RESPONSES) {
		if (typeof inner[name] === 'function') timed[name] = TIMED_METHODS[name];
	}
	return { interaction: timed as unknown as T, times: () => ({ ...times }) };
}
