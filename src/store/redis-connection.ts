import { createClient } from '@keyv/redis';
import { StorageUnavailableError } from '../errors.js';
import { StoreDeadline, withDeadline } from './with-deadline.js';

const MAX_RECONNECT_DELAY_MS = 1000;

function newClient(url: string, deadlineMs: number) {
	return createClient({
		url,
		// A command issued while the socket is down must not queue without limit; run() waits for 'ready' itself.
		disableOfflineQueue: true,
		// No handshake commands: with them, connecting to a frozen server would hang before 'ready'.
		disableClientInfo: true,
		socket: {
			connectTimeout: deadlineMs,
			// Never gives up: the default strategy stops on a socket timeout, and then the store stays down.
			reconnectStrategy: (retries: number) => Math.min(2 ** retries * 50, MAX_RECONNECT_DELAY_MS),
		},
	});
}

export type RedisClient = ReturnType<typeof newClient>;

export interface RedisConnection {
	/**
	 * Runs `command` on a ready client within the deadline; while a reconnect is under way it waits for it
	 * (inside the same deadline) instead of failing at once. Throws StorageUnavailableError on any failure.
	 */
	run<T>(command: (client: RedisClient) => Promise<T>): Promise<T>;
	/** Ends the connection within the deadline, whatever the server does. */
	close(): Promise<void>;
}

export interface RedisConnectionOptions {
	deadlineMs: number;
	onError: (error: unknown) => void;
}

/**
 * One node-redis client shared by every namespace, connected before this resolves (or after the
 * deadline has passed, reported through onError; it keeps trying in the background).
 *
 * node-redis gives a command already written to the socket no deadline of its own: against a server
 * that accepts connections and never answers, it would wait for good. When a command misses its
 * deadline on a client that was ready, that client is abandoned (its socket may be frozen) and a
 * fresh one connects, which is what lets the store recover once the server answers again.
 */
export async function openRedisConnection(url: string, options: RedisConnectionOptions): Promise<RedisConnection> {
	const { deadlineMs, onError } = options;
	let closed = false;

	const connect = (): RedisClient => {
		const client = newClient(url, deadlineMs);
		// Without a listener, a dropped socket is an unhandled 'error' event that ends the process.
		client.on('error', onError);
		client.connect().catch(onError);
		return client;
	};

	let current = connect();

	const abandon = (client: RedisClient) => {
		if (client !== current || closed) return;
		current = connect();
		if (client.isOpen) client.destroy();
	};

	// One waiter per client however many commands wait, so listeners do not pile up during an outage.
	const waiting = new WeakMap<RedisClient, Promise<void>>();
	const ready = async (client: RedisClient): Promise<void> => {
		if (client.isReady) return;
		let waiter = waiting.get(client);
		if (!waiter) {
			waiter = new Promise<void>((resolve) => {
				client.once('ready', () => {
					waiting.delete(client);
					resolve();
				});
			});
			waiting.set(client, waiter);
		}
		await waiter;
	};

	const deadline = new StoreDeadline(deadlineMs);
	// A server that is down now is reported; operations then wait for it with the short outage deadline.
	await deadline.run(ready(current)).catch(onError);

	return {
		run: async <T>(command: (client: RedisClient) => Promise<T>): Promise<T> => {
			if (closed) throw new StorageUnavailableError({ cause: new Error('the store is closed') });
			const client = current;
			let sent = false;
			return deadline.run(
				(async () => {
					await ready(client);
					sent = true;
					return command(client);
				})(),
				() => {
					if (sent) abandon(client);
				},
			);
		},
		close: async () => {
			if (closed) return;
			closed = true;
			const client = current;
			if (!client.isOpen) return;
			// QUIT waits for pending replies; a frozen server never sends them.
			await withDeadline(client.close(), deadlineMs).catch(() => {
				if (client.isOpen) client.destroy();
			});
		},
	};
}
