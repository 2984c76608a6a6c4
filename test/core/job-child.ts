// What a forked child of a two-process job test shares: the IPC with its parent (setup, go, stop, and messages of
// the test's own), a clock whose waits take at most 50 ms of real time, and the run from "go" to "stop".
import type { PeriodicRunner, Clock } from '../../src/core/periodic-runner.js';

/** Sends one message to the parent; resolves once it is handed over. */
export const sendToParent = async (message: object): Promise<void> =>
	new Promise<void>((resolve, reject) =>
		process.send?.(message, (error: Error | null) => (error ? reject(error) : resolve())),
	);

type ControlMessage<Setup> = { setup: Setup } | { go: number } | { stop: true };

/**
 * Listens to the parent: `setup` resolves with its setup, `go` with the wall-clock start it names, `stop` when told;
 * any other message goes to `onOther`.
 */
export function listenToParent<Setup, Other extends object = never>(onOther: (message: Other) => void = () => {}) {
	let setupGiven = (_setup: Setup) => undefined as void;
	let goGiven = (_startAt: number) => undefined as void;
	let stopGiven = () => undefined as void;
	const setup = new Promise<Setup>((resolve) => (setupGiven = resolve));
	const go = new Promise<number>((resolve) => (goGiven = resolve));
	const stop = new Promise<void>((resolve) => (stopGiven = resolve));
	process.on('message', (message: ControlMessage<Setup> | Other) => {
		if ('setup' in message) setupGiven(message.setup);
		else if ('go' in message) goGiven(message.go);
		else if ('stop' in message) stopGiven();
		else onOther(message);
	});
	return { setup, go, stop };
}

/** A clock standing where `now` says; a wait on it takes at most 50 ms of real time before the runner looks again. */
export function parentClock(now: () => number): Clock {
	return {
		now,
		setTimer: (fn, ms) => {
			const timer = setTimeout(fn, Math.min(ms, 50));
			return () => clearTimeout(timer);
		},
	};
}

/**
 * Says ready, starts the runner at the wall-clock moment "go" names (both children together, so their claims
 * overlap), runs it until "stop", closes, and sends `done` (with what the test adds) before leaving.
 */
export async function runUntilStopped(
	parent: { go: Promise<number>; stop: Promise<void> },
	runner: PeriodicRunner,
	close: () => Promise<void>,
	done: () => object = () => ({}),
): Promise<void> {
	await sendToParent({ ready: true });
	const startAt = await parent.go;
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
	runner.start();
	await parent.stop;
	await runner.stop();
	await close();
	await sendToParent({ ...done(), done: true });
	process.disconnect();
}
