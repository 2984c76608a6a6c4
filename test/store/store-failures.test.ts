// Whatever a store's driver rejects with, a member reads "storage unavailable": PostgreSQL's own query and
// connection timeouts equal the store deadline, so either may fire first, and a refused connection rejects at once.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { KeyvStoreAdapter } from 'keyv';
import { StorageUnavailableError } from '../../src/errors.js';
import { DeadlineStore } from '../../src/store/deadline-adapter.js';
import { openStores } from '../../src/store/open-stores.js';
import { openPostgresClaims } from '../../src/store/postgres-claims.js';
import { StoreDeadlineError } from '../../src/store/with-deadline.js';

/** An adapter whose every call rejects with the driver's own error. */
function failingAdapter(error: Error): KeyvStoreAdapter {
	const fail = async () => {
		throw error;
	};
	return Object.assign(new EventEmitter(), {
		opts: {},
		namespace: undefined,
		get: fail,
		set: fail,
		delete: fail,
		clear: fail,
		has: fail,
	}) as unknown as KeyvStoreAdapter;
}

const isStorageUnavailable = (cause: unknown) => (error: unknown) =>
	error instanceof StorageUnavailableError && (error as Error & { cause?: unknown }).cause === cause;

test("a Keyv adapter's own error reaches the caller as storage unavailable, its cause kept", async () => {
	const driverError = new Error('Query read timeout');
	const store = new DeadlineStore(failingAdapter(driverError), 1000, async function* () {});
	await assert.rejects(store.get('key'), isStorageUnavailable(driverError));
	await assert.rejects(store.set('key', 'value'), isStorageUnavailable(driverError));
	await assert.rejects(store.has('key'), isStorageUnavailable(driverError));
	await assert.rejects(store.delete('key'), isStorageUnavailable(driverError));
});

test('a deadline missed is still told apart from a driver error', async () => {
	const never = Object.assign(failingAdapter(new Error('unused')), { get: () => new Promise(() => undefined) });
	const store = new DeadlineStore(never, 50, async function* () {});
	await assert.rejects(
		store.get('key'),
		(error: unknown) => error instanceof StorageUnavailableError && error.cause instanceof StoreDeadlineError,
	);
});

/** A port that was just listening and is closed: nothing answers there. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

test('PostgreSQL stores on a server that refuses connections fail as storage unavailable', async () => {
	const stores = await openStores(`postgres://127.0.0.1:${await closedPort()}/test`, { deadlineMs: 2000 });
	try {
		await assert.rejects(
			stores.links.get('key'),
			(error: unknown) => error instanceof StorageUnavailableError && !(error.cause instanceof StoreDeadlineError),
		);
	} finally {
		await stores.close();
	}
});

test('PostgreSQL claims on a server that refuses connections fail as storage unavailable', async () => {
	const port = await closedPort();
	const claims = await openPostgresClaims(`postgres://127.0.0.1:${port}/test`, {
		deadlineMs: 2000,
		now: Date.now,
		onError: () => undefined,
	});
	try {
		await assert.rejects(
			claims.tryClaim('key', 'token', 1000),
			(error: unknown) => error instanceof StorageUnavailableError && !(error.cause instanceof StoreDeadlineError),
		);
	} finally {
		await claims.close();
	}
});
