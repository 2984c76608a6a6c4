import { StorageUnavailableError } from '../errors.js';

/**
 * How long one store operation may take. A member's command waits for at most one or two of them
 * and must read "storage unavailable" well inside the 8 s it has after acknowledging.
 */
export const STORE_DEADLINE_MS = 3000;

/** The operation did not finish in time; the store may still be working on it. */
export class StoreDeadlineError extends Error {
	override name = 'StoreDeadlineError';
	constructor(readonly deadlineMs: number) {
		super(`the store did not answer within ${deadlineMs} ms`);
	}
}

/**
 * Settles with `operation`, or rejects with StorageUnavailableError (cause: StoreDeadlineError) once
 * `deadlineMs` has passed. The operation itself is not cancelled: callers that can abandon a
 * connection do so through `onTimeout`.
 */
export async function withDeadline<T>(operation: Promise<T>, deadlineMs: number, onTimeout?: () => void): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => {
			onTimeout?.();
			reject(new StorageUnavailableError({ cause: new StoreDeadlineError(deadlineMs) }));
		}, deadlineMs);
	});
	// A late rejection of the abandoned operation must not surface as an unhandled rejection.
	operation.catch(() => undefined);
	try {
		return await Promise.race([operation, expired]);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * withDeadline for a store call: every failure becomes StorageUnavailableError (the cause kept), so a driver's own
 * error (PostgreSQL's query or connection timeout, which can fire just before the deadline; a refused connection)
 * reads to the member as "storage unavailable", never as an unexpected failure.
 */
export async function withStoreDeadline<T>(
	operation: Promise<T>,
	deadlineMs: number,
	onTimeout?: () => void,
): Promise<T> {
	try {
		return await withDeadline(operation, deadlineMs, onTimeout);
	} catch (error) {
		throw asStorageUnavailable(error);
	}
}

/** Any failure of a store call as what the member is told: StorageUnavailableError, the failure kept as its cause. */
export function asStorageUnavailable(error: unknown): StorageUnavailableError {
	return error instanceof StorageUnavailableError ? error : new StorageUnavailableError({ cause: error });
}

/** How long an operation may wait while the store is already missing its deadlines. */
export const OUTAGE_DEADLINE_MS = 1000;

/**
 * The deadline of one store's operations: the full one while the store answers, a short one once an
 * operation has missed it, until one succeeds again. A member's command makes several store calls in
 * a row; without this, each would wait the full deadline and the reply would come too late.
 */
export class StoreDeadline {
	#missing = false;

	constructor(
		readonly ms: number,
		readonly whileMissingMs = Math.min(ms, OUTAGE_DEADLINE_MS),
	) {}

	async run<T>(operation: Promise<T>, onTimeout?: () => void): Promise<T> {
		try {
			const result = await withDeadline(operation, this.#missing ? this.whileMissingMs : this.ms, onTimeout);
			this.#missing = false;
			return result;
		} catch (error) {
			if (error instanceof StorageUnavailableError && error.cause instanceof StoreDeadlineError) this.#missing = true;
			// The driver's own failures too (a refused connection, its own timeout): the member reads "storage unavailable".
			throw asStorageUnavailable(error);
		}
	}
}
