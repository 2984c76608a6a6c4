export { formatGeneratedAt } from './utc-time.js';

export { seedDemoAccount, generateDemoEvents, type DemoOptions } from './demo.js';

export { InvalidEventError, normalizeEvent, type StatsEvent, type NormalizedEvent } from './events.js';

export {
	FUTURE_TOLERANCE_MS,
	MAX_LINE_BYTES,
	REPORTED_BAD_LINES,
	scanEventsFile,
	type BadLine,
	type ScannedEventsFile,
} from './import-file.js';

export { importEventsFile, type ImportOutcome } from './import-events.js';

export { AuthFailureLimiter } from './auth-failure-limiter.js';

export { clientAddressKey } from './client-address.js';

export { RateLimiter } from './rate-limit.js';

export {
	DEFAULT_AUTH_FAIL_LIMIT_PER_MINUTE,
	DEFAULT_HEADERS_TIMEOUT_MS,
	DEFAULT_RATE_LIMIT_PER_MINUTE,
	STATS_PATH,
	startStatsServer,
	type RunningStatsServer,
	type StatsServerOptions,
} from './server.js';

export { BREAKDOWN_DAYS, WEEK_DAYS, type StatsBody } from './stats-body.js';

export {
	AccountNameError,
	openStatsStore,
	StatsStore,
	UnknownAccountError,
	type AccountSummary,
	type AuthenticatedAccount,
	type PriorImport,
	type StagedImportResult,
} from './service-store.js';
