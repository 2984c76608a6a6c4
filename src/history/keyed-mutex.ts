/** Runs `fn` while holding the lock named `key`; the history store wraps every read-modify-write in one. */
export type WithLock = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

/**
 * An in-process lock per key: calls with the same key run one after another, others do not wait.
 * It covers one process only; processes sharing a store need a lock on the store itself.
 */
export function createKeyedMutex(): WithLock {
	// The tail of each key's queue; removed when the last holder finishes, so idle keys cost nothing.
	const tails = new Map<string, Promise<void>>();
	return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
		const previous = tails.get(key) ?? Promise.resolve();
		let release = () => undefined as void;
		const done = new Promise<void>((resolve) => {
			release = resolve;
		});
		const tail = previous.then(() => done);
		tails.set(key, tail);
		await previous;
		try {
			return await fn();
		} finally {
			release();
			if (tails.get(key) === tail) tails.delete(key);
		}
	};
}
