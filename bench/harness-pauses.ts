// The benchmark's own process hosts the Discord stand-in and the stats service. Their garbage (the
// bodies it parses, and before forgetInteraction every message and PNG it recorded) pauses this process,
// and a pause while a bot's request waits for an answer landed in that bot's "own share". A round is
// cleared of the harness's pauses: they are the stand-in's share, like its handling time.
import { PerformanceObserver } from 'node:perf_hooks';

export interface HarnessPauses {
	/** Milliseconds this process spent in garbage collection between `from` and `to` (performance.now() times). */
	pausedWithin(from: number, to: number): Promise<number>;
	stop(): void;
}

export function watchHarnessPauses(): HarnessPauses {
	const pauses: { start: number; end: number }[] = [];
	const observer = new PerformanceObserver((list) => {
		for (const entry of list.getEntries())
			pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
	});
	observer.observe({ entryTypes: ['gc'] });
	return {
		async pausedWithin(from, to) {
			// Entries reach the observer on a later turn of the event loop.
			await new Promise((resolve) => setImmediate(resolve));
			let paused = 0;
			for (const pause of pauses) paused += Math.max(0, Math.min(pause.end, to) - Math.max(pause.start, from));
			// Rounds are measured in order: pauses that ended before this one cannot touch the next.
			while (pauses.length > 0 && pauses[0]!.end <= to) pauses.shift();
			return paused;
		},
		stop: () => observer.disconnect(),
	};
}

/** A full collection of this process between measured turns, so one turn does not inherit another's garbage. */
export function collectHarnessGarbage(): void {
	(globalThis as { gc?: () => void }).gc?.();
}
