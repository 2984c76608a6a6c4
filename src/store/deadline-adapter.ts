import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import { withStoreDeadline } from './with-deadline.js';

/** Every entry of a namespace as [store key, stored value], each page bound by the deadline. */
export type EntryIterator = (namespace: string | undefined) => AsyncGenerator<[string, string]>;

/**
 * Gives every call of a Keyv store adapter a deadline, and makes any failure of it StorageUnavailableError; everything
 * else is the wrapped adapter's.
 */
export class DeadlineStore extends EventEmitter implements KeyvStoreAdapter {
	readonly #inner: KeyvStoreAdapter;
	readonly #deadlineMs: number;
	/** Keyv builds `keyv.iterator` from this (with `opts.dialect`), so it must be bounded too. */
	readonly iterator: EntryIterator;

	constructor(inner: KeyvStoreAdapter, deadlineMs: number, iterator: EntryIterator) {
		super();
		this.#inner = inner;
		this.#deadlineMs = deadlineMs;
		this.iterator = iterator;
		inner.on('error', (error: unknown) => this.emit('error', error));
	}

	get opts(): unknown {
		return this.#inner.opts;
	}

	get namespace(): string | undefined {
		return this.#inner.namespace;
	}

	set namespace(namespace: string | undefined) {
		this.#inner.namespace = namespace;
	}

	async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
		return this.#bounded(this.#inner.get<Value>(key));
	}

	async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
		const inner = this.#inner;
		if (inner.getMany) return this.#bounded(inner.getMany<Value>(keys));
		return Promise.all(keys.map(async (key) => this.get<Value>(key)));
	}

	async has(key: string): Promise<boolean> {
		const inner = this.#inner;
		if (inner.has) return this.#bounded(inner.has(key));
		return (await this.get(key)) !== undefined;
	}

	async set(key: string, value: unknown, ttl?: number): Promise<void> {
		await this.#bounded(Promise.resolve(this.#inner.set(key, value, ttl)));
	}

	async delete(key: string): Promise<boolean> {
		return this.#bounded(this.#inner.delete(key));
	}

	async deleteMany(keys: string[]): Promise<boolean> {
		const inner = this.#inner;
		if (inner.deleteMany) return this.#bounded(inner.deleteMany(keys));
		const deleted = await Promise.all(keys.map(async (key) => this.delete(key)));
		return deleted.some(Boolean);
	}

	async clear(): Promise<void> {
		await this.#bounded(this.#inner.clear());
	}

	async disconnect(): Promise<void> {
		await this.#bounded(this.#inner.disconnect?.() ?? Promise.resolve());
	}

	async #bounded<T>(operation: Promise<T>): Promise<T> {
		return withStoreDeadline(operation, this.#deadlineMs);
	}
}
