import type { InteractionDelivery, InteractionHttpExchange, SandboxMessage, SandboxResponse } from './records.js';

const DEFAULT_WAIT_MS = 5000;

interface Waiter {
	check: () => boolean;
	resolve: () => void;
}

/** What a test holds after dispatching an interaction: everything the bot answered, in order. */
export class InteractionHandle {
	readonly responses: SandboxResponse[] = [];
	/** The message behind `@original`: the reply, or for deferUpdate/update the message holding the component. */
	original: SandboxMessage | undefined;
	/** For component interactions: the message holding the component (what deferUpdate/update edit). */
	componentMessage: SandboxMessage | undefined;
	/** The first accepted callback's type; undefined until one arrived in time. */
	callbackType: number | undefined;
	/** Where the interaction went: gateway sessions (every one owning its shard) or the interactions endpoint. */
	deliveredTo: InteractionDelivery[] = [];
	/** HTTP mode: the signed POST and what the endpoint answered (undefined until it answered or failed). */
	http: InteractionHttpExchange | undefined;
	/** HTTP mode: settles once the endpoint's answer was handled; webhook calls wait for it, as Discord applies the response first. */
	httpSettled: Promise<void> | undefined;
	private readonly waiters = new Set<Waiter>();

	constructor(
		readonly id: string,
		readonly token: string,
		/** Interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit. */
		readonly type: number,
		readonly channelId: string,
		readonly guildId: string | null,
		readonly userId: string,
		/** performance.now() at dispatch. */
		readonly dispatchedAt: number,
		/** The INTERACTION_CREATE `d` as sent on the gateway. */
		readonly payload: Record<string, unknown>,
	) {}

	get callbacks(): SandboxResponse[] {
		return this.responses.filter((response) => response.kind === 'callback');
	}

	/** Callbacks the bot attempted, accepted or refused, over REST and in the HTTP response: 1 for a single answer. */
	get callbackAttempts(): number {
		return this.callbacks.length;
	}

	get edits(): SandboxResponse[] {
		return this.responses.filter((response) => response.kind === 'edit');
	}

	get followUps(): SandboxResponse[] {
		return this.responses.filter((response) => response.kind === 'followUp');
	}

	/** Resolves with the first callback the bot sent (check `status`: 404 with errorCode 10062 when it came late). */
	firstResponse(timeoutMs = DEFAULT_WAIT_MS): Promise<SandboxResponse> {
		return this.waitFor(() => this.callbacks.length > 0, timeoutMs, 'a callback').then(() => this.callbacks[0]!);
	}

	/**
	 * Resolves with the message once it is no longer "thinking": the reply itself, or after a defer the first edit or
	 * follow-up. Rejects if the interaction was answered with a modal or autocomplete choices (no message).
	 */
	async finalMessage(timeoutMs = DEFAULT_WAIT_MS): Promise<SandboxMessage> {
		await this.waitFor(
			() => {
				if (this.callbackType === undefined) return false;
				if (this.callbackType === 8 || this.callbackType === 9) return true;
				if (this.callbackType === 6) return this.edits.some((edit) => edit.status < 300);
				return this.original !== undefined && !this.original.thinking;
			},
			timeoutMs,
			'a final message',
		);
		if (this.callbackType === 8 || this.callbackType === 9 || !this.original) {
			throw new Error(`interaction ${this.id} was answered with callback type ${this.callbackType}, not a message`);
		}
		return this.original;
	}

	/** Resolves once `predicate(handle)` holds, re-checked after every request for this interaction. */
	waitFor(predicate: (handle: this) => boolean, timeoutMs = DEFAULT_WAIT_MS, what = 'the condition'): Promise<this> {
		if (predicate(this)) return Promise.resolve(this);
		return new Promise((resolve, reject) => {
			const waiter: Waiter = {
				check: () => predicate(this),
				resolve: () => {
					clearTimeout(timer);
					resolve(this);
				},
			};
			const timer = setTimeout(() => {
				this.waiters.delete(waiter);
				const seen = this.responses.map((r) => `${r.kind}${r.type ?? ''}:${r.status}`).join(', ') || 'nothing';
				reject(new Error(`interaction ${this.id}: no ${what} within ${timeoutMs} ms (bot sent: ${seen})`));
			}, timeoutMs);
			this.waiters.add(waiter);
		});
	}

	/** Records a response and wakes waiters; called by the REST side. */
	record(response: SandboxResponse): void {
		this.responses.push(response);
		for (const waiter of this.waiters) {
			if (waiter.check()) {
				this.waiters.delete(waiter);
				waiter.resolve();
			}
		}
	}
}
