import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `predicate` every `intervalMs` until it holds; rejects once `timeoutMs` has passed without it holding. */
export async function waitUntil(
	predicate: () => boolean | Promise<boolean>,
	timeoutMs = 5000,
	intervalMs = 10,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await predicate())) {
		if (Date.now() >= deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
		await sleep(intervalMs);
	}
}
