import { createRecordStore, recordTable, type RecordTable } from '../core/record-store.js';
import { createKeyedMutex } from '../core/claims.js';
import { REPORTS_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { parseReportRecord, reportKey, reportKeyPrefix, type ReportRecord } from './report-record.js';
import { REPORT_PREFIX } from '../core/record-kinds.js';

/**
 * The `reports` namespace: one plain JSON record per (server, channel). Reports are written whole, never read and
 * changed under a record's lock (adding one takes the server's claim in report-actions, the scheduler writes each
 * due report in its own turn), so the store offers no `update`.
 */
export type ReportStore = Omit<RecordTable<ReportRecord>, 'update'>;

export function createReportStore(stores: Pick<Stores, 'reports' | 'backend' | 'namespace'>): ReportStore {
	// Never taken: no method of a report store locks.
	const unusedLock = createKeyedMutex();
	const records = createRecordStore(stores, unusedLock, { namespace: REPORTS_NAMESPACE, parse: parseReportRecord });
	const reports = recordTable(records, {
		key: reportKey,
		prefix: (guildId) => (guildId === undefined ? REPORT_PREFIX : reportKeyPrefix(guildId)),
		id: (record) => record.channelId,
	});
	return {
		get: reports.get,
		put: reports.put,
		remove: reports.remove,
		listServer: reports.listServer,
		listAll: reports.listAll,
	};
}
