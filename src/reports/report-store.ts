import type Keyv from 'keyv';
import { StorageUnavailableError } from '../errors.js';
import { listEntries } from '../store/list-entries.js';
import { REPORTS_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { parseReportRecord, reportKey, reportKeyPrefix, type ReportRecord } from './report-record.js';

/** The `reports` namespace: one plain JSON record per (server, channel). */
export interface ReportStore {
	get(guildId: string, channelId: string): Promise<ReportRecord | null>;
	put(record: ReportRecord): Promise<void>;
	/** True when a report existed. */
	remove(guildId: string, channelId: string): Promise<boolean>;
	/** One server's reports, ordered by channel id so lists read the same each time. */
	listServer(guildId: string): Promise<ReportRecord[]>;
	/** Every report of every server, read one at a time. */
	listAll(): AsyncGenerator<ReportRecord>;
}

export function createReportStore(stores: Pick<Stores, 'reports' | 'backend' | 'namespace'>): ReportStore {
	const keyv: Keyv = stores.reports;
	const storage = async <T>(operation: () => Promise<T>): Promise<T> => {
		try {
			return await operation();
		} catch (error) {
			throw error instanceof StorageUnavailableError ? error : new StorageUnavailableError({ cause: error });
		}
	};
	const read = async (key: string) => parseReportRecord(await storage(async () => keyv.get(key)));

	async function* walk(prefix: string): AsyncGenerator<ReportRecord> {
		// Redis SCAN may repeat a key while the store changes.
		const seen = new Set<string>();
		for await (const { key } of listEntries(stores as Stores, REPORTS_NAMESPACE)) {
			if (!key.startsWith(prefix) || seen.has(key)) continue;
			seen.add(key);
			const record = await read(key);
			if (record) yield record;
		}
	}

	return {
		get: async (guildId, channelId) => read(reportKey(guildId, channelId)),
		put: async (record) => {
			await storage(async () => keyv.set(reportKey(record.guildId, record.channelId), record));
		},
		remove: async (guildId, channelId) => storage(async () => keyv.delete(reportKey(guildId, channelId))),
		listServer: async (guildId) => {
			const records: ReportRecord[] = [];
			for await (const record of walk(reportKeyPrefix(guildId))) records.push(record);
			return records.sort((a, b) => a.channelId.localeCompare(b.channelId, 'en', { numeric: true }));
		},
		listAll: () => walk('report:'),
	};
}
