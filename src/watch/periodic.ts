/** Calls `fn` for every item, at most `limit` at a time, so one slow item holds back only its own slot. */
export async function forEachLimited<T>(
	items: AsyncIterable<T>,
	limit: number,
	fn: (item: T) => Promise<void>,
): Promise<void> {
	const inFlight = new Set<Promise<void>>();
	for await (const item of items) {
		const task: Promise<void> = fn(item)
			.catch(() => undefined)
			.finally(() => inFlight.delete(task));
		inFlight.add(task);
		if (inFlight.size >= limit) await Promise.race(inFlight);
	}
	await Promise.all(inFlight);
}
