import { StorageUnavailableError } from '../links/errors.js';

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
