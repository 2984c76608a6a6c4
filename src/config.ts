import { existsSync } from 'node:fs';

export type ChartRendererName = 'quickchart' | 'local' | 'none';

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
}

export class ConfigError extends Error {
	override name = 'ConfigError';
	constructor(readonly problems: string[]) {
		super(problems.join('; '));
	}
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const SNOWFLAKE = /^\d{17,20}$/;

/** Which variables a purpose needs: the bot needs everything, registering needs only Discord's. */
export type ConfigPurpose = 'bot' | 'register';

/**
 * Reads and checks the environment. Throws ConfigError listing every bad variable by name;
 * secret values never appear in the message.
 */
export function loadConfig(env: Env = process.env, purpose: ConfigPurpose = 'bot'): Config {
	const problems: string[] = [];
	const read = (name: string): string | undefined => {
		const value = env[name]?.trim();
		return value === '' ? undefined : value;
	};
	const required = (name: string, needed: boolean): string => {
		const value = read(name);
		if (value === undefined && needed) problems.push(`${name} is required`);
		return value ?? '';
	};
	const url = (name: string, fallback: string | undefined, needed: boolean): string => {
		const value = read(name) ?? fallback;
		if (value === undefined) {
			if (needed) problems.push(`${name} is required`);
			return '';
		}
		try {
			const parsed = new URL(value);
			if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
		} catch {
			problems.push(`${name} must be an http(s) URL`);
		}
		return value.replace(/\/+$/, '');
	};
	const integer = (name: string, fallback: number, min: number, max: number): number => {
		const value = read(name);
		if (value === undefined) return fallback;
		const parsed = Number(value);
		if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
			problems.push(`${name} must be a whole number from ${min} to ${max}`);
			return fallback;
		}
		return parsed;
	};
	const secret = (name: string, needed: boolean): Buffer | null => {
		const value = read(name);
		if (value === undefined) {
			if (needed) problems.push(`${name} is required (32 bytes as 64 hex characters or base64)`);
			return null;
		}
		const decoded = decodeSecret(value);
		if (!decoded) problems.push(`${name} must be 32 bytes as 64 hex characters or base64`);
		return decoded;
	};
	const snowflake = (name: string): string | null => {
		const value = read(name);
		if (value !== undefined && !SNOWFLAKE.test(value)) problems.push(`${name} must be a Discord id (digits)`);
		return value ?? null;
	};

	const isBot = purpose === 'bot';
	const chartRenderer = read('CHART_RENDERER') ?? 'quickchart';
	if (!['quickchart', 'local', 'none'].includes(chartRenderer)) {
		problems.push('CHART_RENDERER must be quickchart, local or none');
	}
	const logLevel = read('LOG_LEVEL') ?? 'info';
	if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

	const config: Config = {
		discordToken: required('DISCORD_TOKEN', true),
		applicationId: snowflake('DISCORD_APPLICATION_ID'),
		discordApiUrl: url('DISCORD_API_URL', 'https://discord.com/api', true),
		devGuildId: snowflake('DISCORD_DEV_GUILD_ID'),
		statsApiBaseUrl: url('STATS_API_BASE_URL', undefined, isBot),
		storeUrl: read('STORE_URL') ?? 'sqlite://data/bot.sqlite',
		linkSecret: secret('LINK_SECRET', isBot) ?? Buffer.alloc(0),
		linkSecretPrevious: secret('LINK_SECRET_PREVIOUS', false),
		chartRenderer: chartRenderer as ChartRendererName,
		quickchartUrl: url('QUICKCHART_URL', 'https://quickchart.io', true),
		statsCacheTtlSeconds: integer('STATS_CACHE_TTL_SECONDS', 60, 0, 86_400),
		statsApiTimeoutMs: integer('STATS_API_TIMEOUT_MS', 2500, 100, 14_000),
		statsCooldownSeconds: integer('STATS_COOLDOWN_SECONDS', 3, 0, 3600),
		logLevel,
	};
	if (!/^(sqlite|redis|rediss|postgres|postgresql):\/\//.test(config.storeUrl)) {
		problems.push('STORE_URL must start with sqlite://, redis:// or postgres://');
	}
	if (purpose === 'register' && !config.applicationId) problems.push('DISCORD_APPLICATION_ID is required');
	if (problems.length > 0) throw new ConfigError(problems);
	return config;
}

/** What `npm run links` reads: the store and the link secrets, nothing else. */
export interface LinkStoreConfig {
	storeUrl: string;
	/** null when unset and not needed. */
	linkSecret: Buffer | null;
	linkSecretPrevious: Buffer | null;
}

/**
 * Reads STORE_URL, LINK_SECRET and LINK_SECRET_PREVIOUS only, checked as loadConfig checks them.
 * Throws ConfigError naming every bad variable; secret values never appear in the message.
 */
export function loadLinkStoreConfig(options: { secretRequired: boolean }, env: Env = process.env): LinkStoreConfig {
	const problems: string[] = [];
	const read = (name: string): string | undefined => {
		const value = env[name]?.trim();
		return value === '' ? undefined : value;
	};
	const secret = (name: string, needed: boolean): Buffer | null => {
		const value = read(name);
		if (value === undefined) {
			if (needed) problems.push(`${name} is required (32 bytes as 64 hex characters or base64)`);
			return null;
		}
		const decoded = decodeSecret(value);
		if (!decoded) problems.push(`${name} must be 32 bytes as 64 hex characters or base64`);
		return decoded;
	};
	const storeUrl = read('STORE_URL') ?? 'sqlite://data/bot.sqlite';
	if (!/^(sqlite|redis|rediss|postgres|postgresql):\/\//.test(storeUrl)) {
		problems.push('STORE_URL must start with sqlite://, redis:// or postgres://');
	}
	const config = {
		storeUrl,
		linkSecret: secret('LINK_SECRET', options.secretRequired),
		linkSecretPrevious: secret('LINK_SECRET_PREVIOUS', false),
	};
	if (problems.length > 0) throw new ConfigError(problems);
	return config;
}

/** Accepts 64 hex characters or base64 (standard or url-safe) that decode to exactly 32 bytes. */
export function decodeSecret(value: string): Buffer | null {
	if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
	if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
		const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
		if (bytes.length === 32) return bytes;
	}
	return null;
}

/** Loads `.env` when present; variables already in the environment win (process.loadEnvFile keeps them). */
export function loadDotEnv(path = '.env'): void {
	if (existsSync(path)) process.loadEnvFile(path);
}
