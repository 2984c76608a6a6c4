/** Calls `fn` after `ms`; returns a function that cancels it. Tests pass a clock of their own. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

/**
 * A sleep that `wake()` ends early: the background loops (reports, sampler, stat channels, alerts) sleep
 * until their next round and are woken by stop(), so shutting down never waits out a timer.
 */
export function wakeableSleep(setTimer: SetTimer): { sleep(ms: number): Promise<void>; wake(): void } {
	let wake: (() => void) | null = null;
	return {
		sleep: (ms) =>
			new Promise<void>((resolve) => {
				const cancel = setTimer(
					() => {
						wake = null;
						resolve();
					},
					Math.max(0, ms),
				);
				wake = () => {
					cancel();
					wake = null;
					resolve();
				};
			}),
		wake: () => wake?.(),
	};
}
