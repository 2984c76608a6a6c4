export { formatGeneratedAt } from './days.js';
export { seedDemoAccount, generateDemoEvents, type DemoOptions } from './demo.js';
export { InvalidEventError, normalizeEvent, type StatsEvent, type NormalizedEvent } from './events.js';
export { EventFileError, readEventsFile } from './import-file.js';
export { MAX_KEY_LENGTH } from './keys.js';
export { RateLimiter } from './rate-limit.js';
export {
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
} from './store.js';
