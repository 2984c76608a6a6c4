// Every label value comes from one of these fixed sets, so a series count is known in advance:
// no id, key or name can become a label, whatever a caller passes at run time.
import type { Status } from 'discord.js';
import type { ChartRendererName } from '../config.js';

/** Recorded in place of any value outside a label's set (a cast, a new command not declared). */
export const OTHER = 'other';
export type Other = typeof OTHER;

export const INTERACTION_OUTCOMES = ['answered', 'user_error', 'upstream_error', 'expired', 'failed'] as const;
/** `expired`: Discord refused the response with 10062 or 40060; `failed`: a bug reached the router. */
export type InteractionOutcome = (typeof INTERACTION_OUTCOMES)[number];

export const UPSTREAM_STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'network', 'timeout'] as const;
export type UpstreamStatusClass = (typeof UPSTREAM_STATUS_CLASSES)[number];

export const SNAPSHOT_CACHE_RESULTS = ['hit', 'miss', 'stale'] as const;
/** `stale`: the upstream failed and an expired snapshot was served instead. */
export type SnapshotCacheResult = (typeof SNAPSHOT_CACHE_RESULTS)[number];

export const CHART_RENDERERS = ['quickchart', 'local'] as const satisfies readonly ChartRendererName[];
export type ChartRendererLabel = (typeof CHART_RENDERERS)[number];

export const CHART_RENDER_OUTCOMES = ['ok', 'failed', 'timeout'] as const;
export type ChartRenderOutcome = (typeof CHART_RENDER_OUTCOMES)[number];

export const STORE_OPERATIONS = ['connect', 'read', 'write', 'delete', 'list'] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];

// The responses Cloudflare counts towards its ban of 10,000 invalid requests in 10 minutes.
export const DISCORD_INVALID_STATUSES = [401, 403, 429] as const;
export type DiscordInvalidStatus = (typeof DISCORD_INVALID_STATUSES)[number];

/** In the order of discord.js's `Status` enum, whose numbers index this list (a test holds them together). */
export const SHARD_STATUSES = [
	'ready',
	'connecting',
	'reconnecting',
	'idle',
	'nearly',
	'disconnected',
	'waiting_for_guilds',
	'identifying',
	'resuming',
] as const;
export type ShardStatus = Status;

/** Shard ids above this are recorded as `other`; far more shards than this bot will ever run. */
export const MAX_SHARD_LABEL = 4095;

/** `value` when it is one of `allowed`, else `other`. */
export function boundLabel<T extends string>(allowed: readonly T[], value: string): T | Other {
	return (allowed as readonly string[]).includes(value) ? (value as T) : OTHER;
}

export function shardLabel(shard: number): string {
	return Number.isInteger(shard) && shard >= 0 && shard <= MAX_SHARD_LABEL ? String(shard) : OTHER;
}

/** The class of an HTTP status the stats endpoint answered with. */
export function statusClassOf(status: number): UpstreamStatusClass {
	if (status < 300) return '2xx';
	if (status < 400) return '3xx';
	if (status < 500) return '4xx';
	return '5xx';
}

export const WEBHOOK_FORMAT_LABELS = ['standard', 'slack', 'discord'] as const;
export type WebhookFormatLabel = (typeof WEBHOOK_FORMAT_LABELS)[number];
export const WEBHOOK_OUTCOMES = ['delivered', 'failed', 'disabled'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];
