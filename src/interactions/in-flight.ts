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
