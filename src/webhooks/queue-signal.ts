// A note, per process and store, that something was queued or rescheduled here: the queue's job reads the whole
// queue within seconds after one, and otherwise once a minute (reading it lists the store's `watch` namespace).
const signalled = new WeakSet<object>();

export function signalQueued(store: object): void {
	signalled.add(store);
}

/** True once after signalQueued: the note is taken. */
export function takeQueuedSignal(store: object): boolean {
	return signalled.delete(store);
}
