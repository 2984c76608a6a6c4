import { StorageUnavailableError } from '../errors.js';
import { StoreDeadlineError } from '../store/with-deadline.js';

/** One line about what failed, for a command-line tool; a store URL may hold a password, so it is never quoted. */
export function describeStoreFailure(error: unknown): string {
	if (error instanceof StorageUnavailableError) {
		if (error.cause instanceof StoreDeadlineError) return error.cause.message;
		return `the store failed: ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`;
	}
	return error instanceof Error ? error.message : String(error);
}
