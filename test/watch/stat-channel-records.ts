// Stat channel records as `/statchannel add` would store them, for tests and benches that seed many at once.
import { createKeyedMutex } from '../../src/store/locks.js';
import { openStores } from '../../src/store/open-stores.js';
import { WATCH_SCHEMA_VERSION, type StatChannelRecord } from '../../src/watch/watch-record.js';
import { createWatchStore } from '../../src/watch/watch-store.js';

/** A live stat channel showing all-time sends, never renamed yet; `overrides` changes any field. */
export function statChannelRecord(
	guildId: string,
	channelId: string,
	overrides: Partial<StatChannelRecord> = {},
): StatChannelRecord {
	return {
		v: WATCH_SCHEMA_VERSION,
		guildId,
		channelId,
		figure: 'sends-all',
		createdBy: '1',
		createdAt: Date.now(),
		guildLocale: 'en-US',
		paused: null,
		name: null,
		renames: [],
		blockedUntil: 0,
		pending: null,
		...overrides,
	};
}

/** Stores one stat channel per entry in the store at `url` (under `prefix`), `batch` writes at a time. */
export async function seedStatChannels(
	url: string,
	prefix: string | undefined,
	channels: readonly { guildId: string; channelId: string }[],
	batch = 25,
): Promise<void> {
	const stores = await openStores(url, { namespacePrefix: prefix });
	try {
		const watch = createWatchStore(stores, createKeyedMutex());
		for (let i = 0; i < channels.length; i += batch) {
			await Promise.all(
				channels
					.slice(i, i + batch)
					.map(async ({ guildId, channelId }) => watch.statChannels.put(statChannelRecord(guildId, channelId))),
			);
		}
	} finally {
		await stores.close();
	}
}
