export { createStatsClient } from './client.js';
export type { StatsClient, StatsClientOptions } from './client.js';
export * from '../errors.js';
export type { DailySends, Figure, StatsResult, StatsSnapshot } from './snapshot.js';
export { MAX_BODY_BYTES, parseRetryAfter } from './http.js';
export { parseStatsBody, normaliseBreakdown } from './validate.js';
