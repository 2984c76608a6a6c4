import { EventEmitter } from 'node:events';
import type { KeyvStoreAdapter, StoredData } from 'keyv';
import type { RawEntry } from './raw-entry.js';
import type { RedisConnection } from './redis-connection.js';

// The layout @keyv/redis used before this adapter existed (`links::user:1`), so stored links still read back.
const SEPARATOR = '::';
const SCAN_COUNT = 500;

/**
 * Keyv store adapter for one namespace over a shared RedisConnection (every call has its deadline).
 * Keyv is given `useKeyPrefix: false`: the namespace is prefixed here, and Redis expires entries by PX.
 */
export class RedisStore extends EventEmitter implements KeyvStoreAdapter {
	// Keyv offers `keyv.iterator` for a 'redis' dialect that has an iterator.
	readonly opts = { dialect: 'redis' };
	/** Keyv assigns its namespace here; the prefix used is the one given to the constructor (the same). */
	namespace?: string | undefined;
	readonly #connection: RedisConnection;
	readonly #prefix: string;

	constructor(connection: RedisConnection, namespace: string) {
		super();
		this.#connection = connection;
		this.#prefix = namespace + SEPARATOR;
		this.namespace = namespace;
	}

	async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
		const value = await this.#connection.run(async (client) => client.get(this.#prefix + key));
		return (value ?? undefined) as StoredData<Value> | undefined;
	}

	async getMany<Value>(keys: string[]): Promise<Array<StoredData<Value | undefined>>> {
		if (keys.length === 0) return [];
		const values = await this.#connection.run(async (client) => client.mGet(keys.map((key) => this.#prefix + key)));
		return values.map((value) => (value ?? undefined) as StoredData<Value | undefined>);
	}

	async has(key: string): Promise<boolean> {
		return (await this.#connection.run(async (client) => client.exists(this.#prefix + key))) > 0;
	}

	async set(key: string, value: string, ttl?: number): Promise<void> {
		await this.#connection.run(async (client) =>
			ttl ? client.set(this.#prefix + key, value, { PX: ttl }) : client.set(this.#prefix + key, value),
		);
	}

	async delete(key: string): Promise<boolean> {
		return (await this.#connection.run(async (client) => client.del(this.#prefix + key))) > 0;
	}

	async deleteMany(keys: string[]): Promise<boolean> {
		if (keys.length === 0) return false;
		return (await this.#connection.run(async (client) => client.del(keys.map((key) => this.#prefix + key)))) > 0;
	}

	/** Deletes this namespace's keys only. */
	async clear(): Promise<void> {
		for await (const page of this.#scan()) {
			await this.#connection.run(async (client) => client.unlink(page.map((entry) => this.#prefix + entry)));
		}
	}

	/** The connection belongs to whoever opened it; one namespace closing must not end the others. */
	async disconnect(): Promise<void> {}

	/** Every entry: the key Keyv callers use, the value as stored. Each page is one deadline-bound call. */
	async *list(): AsyncGenerator<RawEntry> {
		for await (const page of this.#scan()) {
			const values = await this.#connection.run(async (client) => client.mGet(page.map((key) => this.#prefix + key)));
			for (const [index, key] of page.entries()) {
				const raw = values[index];
				// A key that expired between SCAN and MGET is simply gone.
				if (raw !== null && raw !== undefined) yield { key, raw };
			}
		}
	}

	/** For Keyv's own `keyv.iterator` (keys as Keyv callers use them: Keyv adds no prefix here). */
	async *iterator(): AsyncGenerator<[string, string]> {
		for await (const { key, raw } of this.list()) yield [key, raw];
	}

	async *#scan(): AsyncGenerator<string[]> {
		const match = `${this.#prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
		let cursor = '0';
		do {
			const result = await this.#connection.run(async (client) =>
				client.scan(cursor, { MATCH: match, COUNT: SCAN_COUNT }),
			);
			cursor = String(result.cursor);
			if (result.keys.length > 0) yield result.keys.map((key) => key.slice(this.#prefix.length));
		} while (cursor !== '0');
	}
}
