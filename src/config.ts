import { existsSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { envReaders, type Env } from './env-readers.js';
import { STORE_URL_PROBLEM, storeSchemeOf } from './store-url.js';

/** What CHART_RENDERER may name: QuickChart over HTTP, the local worker pool, or no chart. */
export const CHART_RENDERER_NAMES = ['quickchart', 'local', 'none'] as const;
export type ChartRendererName = (typeof CHART_RENDERER_NAMES)[number];

export interface Config {
	discordToken: string;
	/** Needed to register commands; start-up reads it from the token's application otherwise. */
	applicationId: string | null;
	/** Base of Discord's REST API without the version, e.g. https://discord.com/api. */
	discordApiUrl: string;
	devGuildId: string | null;
	statsApiBaseUrl: string;
	storeUrl: string;
	/** 32 bytes. */
	linkSecret: Buffer;
	/** 32 bytes; decrypts records written before a rotation. */
	linkSecretPrevious: Buffer | null;
	chartRenderer: ChartRendererName;
	quickchartUrl: string;
	/** 0 disables the cache (the stale fallback still applies). */
	statsCacheTtlSeconds: number;
	statsApiTimeoutMs: number;
	/** 0 disables the cooldown. */
	statsCooldownSeconds: number;
	logLevel: string;
	historySampling: boolean;
	historySamplePerMinute: number;
	historyDays: number;
	/** SERVER_DATA_DAYS: how long a server the bot left keeps its records before they are purged (0: within a minute). */
	serverDataDays: number;
	/** Minutes between two refreshes of the stat channels (Discord renames a channel at most twice in 10). */
	statChannelMinutes: number;
	/** Minutes between two evaluations of the alerts. */
	alertCheckMinutes: number;
	/** Minutes between two refreshes of the boards (`/board`): a message edit, no rename limit. */
	boardMinutes: number;
	/** Bot-token REST calls per wall-clock second, all processes together (Discord allows 50; interactions excepted). */
	discordRestPerSecond: number;
	/** Gateway shards in total; 'auto' asks Discord. */
	shardCount: number | 'auto';
	/** Processes the shards are spread over (ShardingManager when above 1). */
	botProcesses: number;
	/** Set in a bot process a ShardingManager started: what the manager handed it. */
	managedChild: ManagedChild | null;
	/** Set: HTTP interactions mode, no gateway. */
	interactionsPort: number | null;
	interactionsHost: string;
	/** The application's Ed25519 public key, 32 bytes; required in HTTP mode. */
	discordPublicKey: Buffer | null;
	metricsPort: number | null;
	metricsHost: string;
	/** Set: the web dashboard listens here. */
	webPort: number | null;
	webHost: string;
	/** The origin members open, without a trailing slash; the OAuth2 redirect URI is `{webPublicUrl}/auth/callback`. */
	webPublicUrl: string | null;
	/** The application's OAuth2 client secret; required with WEB_PORT. */
	discordClientSecret: string | null;
	/** Discord's authorization page. */
	discordOauthUrl: string;
	/** PRIVACY_CONTACT: where members send questions and requests about their data (an address, a URL). */
	privacyContact: string | null;
	/** PRIVACY_POLICY_URL: the host's own privacy policy; `/privacy` then redirects there. */
	privacyPolicyUrl: string | null;
	/**
	 * WEBHOOK_ALLOW_HOSTS: host names and CIDRs (lower case) an outgoing webhook may reach although their addresses
	 * are private, loopback and the like (an in-house n8n); only these may use http://.
	 */
	webhookAllowHosts: string[];
}

export interface ManagedChild {
	/** 0, 1, …: the child's index, for what each process must own alone (its metrics port). */
	index: number;
	/** The shard ids this child runs. */
	shards: number[];
}

/** Environment a ShardingManager child reads its shards from (discord.js's own names, JSON list). */
export const SHARDS_ENV = 'SHARDS';
/** Environment naming a ShardingManager child's index (0, 1, …). */
export const PROCESS_INDEX_ENV = 'BOT_PROCESS_INDEX';

/** A bot process a ShardingManager started (BOT_PROCESSES above 1): it runs the shards it was handed. */
export function isManagedChild(config: Pick<Config, 'managedChild'>): config is { managedChild: ManagedChild } {
	return config.managedChild !== null;
}

export class ConfigError extends Error {
	override name = 'ConfigError';
	constructor(readonly problems: string[]) {
		super(problems.join('; '));
	}
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/**
 * A 365-day chart and today (DESIGN: below 366 is a configuration error). The chart's first 7-day average then
 * starts from the days it has; 371 would give it whole weeks from the first day.
 */
const MIN_HISTORY_DAYS = 366;
/**
 * Stat channels and alerts run at most this often. Discord allows two renames of a channel per 10 minutes and
 * its maintainers call channel names used as live counters an abuse of renames; alerts read the same snapshots.
 */
const MIN_WATCH_MINUTES = 5;
const STATS_PATH = /\/api\/v1\/stats\/?$/;

/** Which variables a purpose needs: the bot needs everything, registering needs only Discord's. */
export type ConfigPurpose = 'bot' | 'register' | 'web';

/**
 * Reads and checks the environment. Throws ConfigError listing every bad variable by name;
 * secret values never appear in the message.
 */
export function loadConfig(env: Env = process.env, purpose: ConfigPurpose = 'bot'): Config {
	const { config, problems } = readConfig(env, purpose);
	if (problems.length > 0) throw new ConfigError(problems);
	return config;
}

/**
 * loadConfig without the verdict: each variable read on its own, a bad one left at its default and named in
 * `problems`, each problem starting with the variable it blames. The doctor runs what does not depend on it.
 */
export function readConfig(
	env: Env = process.env,
	purpose: ConfigPurpose = 'bot',
): { config: Config; problems: string[] } {
	const readers = envReaders(env);
	const { problems, read, integer, oneOf, snowflake } = readers;
	// `npm run web` reads everything the bot reads (store, secrets, stats endpoint) and needs WEB_PORT.
	const isBot = purpose === 'bot' || purpose === 'web';
	const discord = readDiscordSettings(readers, isBot);
	const statsApiBaseUrl = isBot ? readers.url('STATS_API_BASE_URL', undefined, true) : '';
	if (STATS_PATH.test(statsApiBaseUrl)) {
		problems.push('STATS_API_BASE_URL must be the base URL only: the bot adds /api/v1/stats itself');
	}
	const storeUrl = read('STORE_URL') ?? 'sqlite://data/bot.sqlite';
	if (isBot && storeSchemeOf(storeUrl) === null) problems.push(STORE_URL_PROBLEM);
	const scale = readScaleSettings(readers, isBot);
	if (scale.botProcesses > 1 && storeSchemeOf(storeUrl) === 'sqlite') {
		problems.push(
			'BOT_PROCESSES above 1 needs a shared STORE_URL (redis:// or postgres://): sqlite:// is for one process',
		);
	}

	const config: Config = {
		...discord,
		devGuildId: snowflake('DISCORD_DEV_GUILD_ID'),
		statsApiBaseUrl: statsApiBaseUrl.replace(STATS_PATH, ''),
		storeUrl,
		linkSecret: readers.secret('LINK_SECRET', isBot) ?? Buffer.alloc(0),
		linkSecretPrevious: readers.secret('LINK_SECRET_PREVIOUS', false),
		chartRenderer: oneOf('CHART_RENDERER', CHART_RENDERER_NAMES, 'quickchart'),
		quickchartUrl: readers.url('QUICKCHART_URL', 'https://quickchart.io', isBot),
		statsCacheTtlSeconds: integer('STATS_CACHE_TTL_SECONDS', 60, 0, 86_400),
		statsApiTimeoutMs: integer('STATS_API_TIMEOUT_MS', 2500, 100, 14_000),
		statsCooldownSeconds: integer('STATS_COOLDOWN_SECONDS', 3, 0, 3600),
		logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
		historySampling: oneOf('HISTORY_SAMPLING', ['on', 'off'], 'on') === 'on',
		historySamplePerMinute: integer('HISTORY_SAMPLE_PER_MINUTE', 30, 1, 6000),
		historyDays: integer('HISTORY_DAYS', 400, MIN_HISTORY_DAYS, 3660),
		serverDataDays: integer('SERVER_DATA_DAYS', 30, 0, 3660),
		statChannelMinutes: integer('STAT_CHANNEL_MINUTES', 10, MIN_WATCH_MINUTES, 1440),
		alertCheckMinutes: integer('ALERT_CHECK_MINUTES', 15, MIN_WATCH_MINUTES, 1440),
		boardMinutes: integer('BOARD_MINUTES', 15, MIN_WATCH_MINUTES, 1440),
		discordRestPerSecond: integer('DISCORD_REST_PER_SECOND', 40, 1, 50),
		...scale,
		...readMetricsSettings(readers),
		...readWebSettings(readers, purpose),
		webhookAllowHosts: readAllowHosts(readers),
	};
	if (purpose === 'register' && !config.applicationId) problems.push('DISCORD_APPLICATION_ID is required');
	if (purpose === 'bot' && config.webPort !== null && config.botProcesses > 1) {
		problems.push('WEB_PORT serves the dashboard inside npm start only with BOT_PROCESSES=1: run it with npm run web');
	}
	return { config, problems };
}

/** WEBHOOK_ALLOW_HOSTS: comma-separated host names or CIDRs; a malformed entry is named. */
function readAllowHosts(readers: ReturnType<typeof envReaders>): string[] {
	const entries = (readers.read('WEBHOOK_ALLOW_HOSTS') ?? '')
		.split(',')
		.map((entry) => entry.trim().toLowerCase())
		.filter((entry) => entry !== '');
	const bad = entries.filter((entry) => (entry.includes('/') ? !isCidr(entry) : !/^[a-z0-9.:_-]+$/.test(entry)));
	if (bad.length > 0) {
		readers.problems.push(`WEBHOOK_ALLOW_HOSTS must list host names or CIDRs, comma-separated: ${bad.join(', ')}`);
		return [];
	}
	return entries;
}

function isCidr(entry: string): boolean {
	try {
		ipaddr.parseCIDR(entry);
		return true;
	} catch {
		return false;
	}
}

function readDiscordSettings(readers: ReturnType<typeof envReaders>, isBot: boolean) {
	return {
		discordToken: readers.required('DISCORD_TOKEN', true),
		applicationId: readers.snowflake('DISCORD_APPLICATION_ID'),
		discordApiUrl: readers.url('DISCORD_API_URL', 'https://discord.com/api', true),
		discordPublicKey: readPublicKey(readers, isBot),
	};
}

function readPublicKey(readers: ReturnType<typeof envReaders>, isBot: boolean): Buffer | null {
	const value = readers.read('DISCORD_PUBLIC_KEY');
	if (value === undefined) {
		if (isBot && readers.read('INTERACTIONS_PORT') !== undefined) {
			readers.problems.push(
				"DISCORD_PUBLIC_KEY is required with INTERACTIONS_PORT (the app's Public Key, 64 hex characters)",
			);
		}
		return null;
	}
	if (!/^[0-9a-fA-F]{64}$/.test(value)) {
		readers.problems.push("DISCORD_PUBLIC_KEY must be 64 hex characters (the app's Public Key)");
		return null;
	}
	return Buffer.from(value, 'hex');
}

function readScaleSettings(readers: ReturnType<typeof envReaders>, isBot: boolean) {
	const rawShards = readers.read('SHARD_COUNT') ?? 'auto';
	let shardCount: number | 'auto' = 'auto';
	if (rawShards !== 'auto') {
		shardCount = readers.integer('SHARD_COUNT', 1, 1, 10_000);
	}
	const interactionsPort =
		readers.read('INTERACTIONS_PORT') === undefined ? null : readers.integer('INTERACTIONS_PORT', 0, 0, 65_535);
	const botProcesses = readers.integer('BOT_PROCESSES', 1, 1, 64);
	if (isBot && interactionsPort !== null && botProcesses > 1) {
		readers.problems.push(
			'BOT_PROCESSES is for gateway shards; in HTTP mode (INTERACTIONS_PORT) run several workers behind a load balancer',
		);
	}
	if (isBot && typeof shardCount === 'number' && botProcesses > shardCount) {
		readers.problems.push('BOT_PROCESSES cannot exceed SHARD_COUNT: each process needs at least one shard');
	}
	return {
		shardCount,
		botProcesses,
		managedChild: readManagedChild(readers, shardCount),
		interactionsPort,
		interactionsHost: readers.read('INTERACTIONS_HOST') ?? '127.0.0.1',
	};
}

/** What a ShardingManager handed this process (discord.js sets SHARDING_MANAGER in its children); null otherwise. */
function readManagedChild(readers: ReturnType<typeof envReaders>, shardCount: number | 'auto'): ManagedChild | null {
	if (readers.read('SHARDING_MANAGER') !== 'true') return null;
	const raw = readers.read(SHARDS_ENV);
	let ids: unknown;
	try {
		ids = JSON.parse(raw ?? '');
	} catch {
		readers.problems.push(`${SHARDS_ENV} must be a JSON list of shard ids, got ${JSON.stringify(raw)}`);
		return null;
	}
	if (typeof ids === 'number') ids = [ids];
	const below = typeof shardCount === 'number' ? shardCount : Number.POSITIVE_INFINITY;
	if (
		!Array.isArray(ids) ||
		ids.length === 0 ||
		!ids.every((id) => Number.isInteger(id) && (id as number) >= 0 && (id as number) < below)
	) {
		const limit = typeof shardCount === 'number' ? ` below ${shardCount}` : '';
		readers.problems.push(`${SHARDS_ENV} must list shard ids${limit}, got ${JSON.stringify(raw)}`);
		return null;
	}
	const index = Number(readers.read(PROCESS_INDEX_ENV) ?? 0);
	return { index: Number.isInteger(index) && index >= 0 ? index : 0, shards: ids as number[] };
}

function readMetricsSettings(readers: ReturnType<typeof envReaders>) {
	return {
		metricsPort: readers.read('METRICS_PORT') === undefined ? null : readers.integer('METRICS_PORT', 0, 0, 65_535),
		metricsHost: readers.read('METRICS_HOST') ?? '127.0.0.1',
	};
}

function readWebSettings(readers: ReturnType<typeof envReaders>, purpose: ConfigPurpose) {
	const webPort = readers.read('WEB_PORT') === undefined ? null : readers.integer('WEB_PORT', 0, 0, 65_535);
	if (purpose === 'web' && webPort === null) readers.problems.push('WEB_PORT is required for npm run web');
	const needed = webPort !== null && purpose !== 'register';
	const publicUrl =
		readers.read('WEB_PUBLIC_URL') === undefined && !needed ? null : readers.url('WEB_PUBLIC_URL', undefined, needed);
	if (publicUrl && URL.canParse(publicUrl) && new URL(publicUrl).pathname !== '/') {
		readers.problems.push('WEB_PUBLIC_URL must be an origin only (https://host[:port]), without a path');
	}
	const clientSecret = readers.read('DISCORD_CLIENT_SECRET') ?? null;
	if (needed && clientSecret === null) {
		readers.problems.push("DISCORD_CLIENT_SECRET is required with WEB_PORT (the app's OAuth2 client secret)");
	}
	if (needed && readers.read('DISCORD_APPLICATION_ID') === undefined) {
		readers.problems.push('DISCORD_APPLICATION_ID is required with WEB_PORT (it is the OAuth2 client id)');
	}
	return {
		webPort,
		webHost: readers.read('WEB_HOST') ?? '127.0.0.1',
		webPublicUrl: publicUrl || null,
		discordClientSecret: clientSecret,
		discordOauthUrl: readers.url('DISCORD_OAUTH_URL', 'https://discord.com/oauth2/authorize', false),
		privacyContact: readers.read('PRIVACY_CONTACT')?.trim() || null,
		privacyPolicyUrl:
			readers.read('PRIVACY_POLICY_URL') === undefined
				? null
				: readers.url('PRIVACY_POLICY_URL', undefined, false) || null,
	};
}

export interface LinkStoreConfig {
	storeUrl: string;
	linkSecret: Buffer | null;
	linkSecretPrevious: Buffer | null;
}

/** Only what `npm run links` needs: the store and the secrets that open its records. */
export function loadLinkStoreConfig(options: { secretRequired: boolean }, env: Env = process.env): LinkStoreConfig {
	const readers = envReaders(env);
	const storeUrl = readers.read('STORE_URL') ?? 'sqlite://data/bot.sqlite';
	if (storeSchemeOf(storeUrl) === null) readers.problems.push(STORE_URL_PROBLEM);
	const config = {
		storeUrl,
		linkSecret: readers.secret('LINK_SECRET', options.secretRequired),
		linkSecretPrevious: readers.secret('LINK_SECRET_PREVIOUS', false),
	};
	if (readers.problems.length > 0) throw new ConfigError(readers.problems);
	return config;
}

/** Loads `.env` when present; variables already in the environment win (process.loadEnvFile keeps them). */
export function loadDotEnv(path = '.env'): void {
	if (existsSync(path)) process.loadEnvFile(path);
}
