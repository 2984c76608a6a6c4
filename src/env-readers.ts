/** Typed readers over an environment; each records a problem naming the variable instead of throwing. */
export type Env = Record<string, string | undefined>;

export interface EnvReaders {
	problems: string[];
	read(name: string): string | undefined;
	required(name: string, needed: boolean): string;
	url(name: string, fallback: string | undefined, needed: boolean): string;
	integer(name: string, fallback: number, min: number, max: number): number;
	oneOf<T extends string>(name: string, choices: readonly T[], fallback: T): T;
	secret(name: string, needed: boolean): Buffer | null;
	snowflake(name: string): string | null;
}

const SNOWFLAKE = /^\d{17,20}$/;

export function envReaders(env: Env): EnvReaders {
	const problems: string[] = [];
	const read = (name: string): string | undefined => {
		const value = env[name]?.trim();
		return value === '' ? undefined : value;
	};
	return {
		problems,
		read,
		required(name, needed) {
			const value = read(name);
			if (value === undefined && needed) problems.push(`${name} is required`);
			return value ?? '';
		},
		url(name, fallback, needed) {
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
		},
		integer(name, fallback, min, max) {
			const value = read(name);
			if (value === undefined) return fallback;
			const parsed = Number(value);
			if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
				problems.push(`${name} must be a whole number from ${min} to ${max}`);
				return fallback;
			}
			return parsed;
		},
		oneOf(name, choices, fallback) {
			const value = read(name) ?? fallback;
			if (!(choices as readonly string[]).includes(value)) {
				problems.push(`${name} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`);
				return fallback;
			}
			return value as (typeof choices)[number];
		},
		secret(name, needed) {
			const value = read(name);
			if (value === undefined) {
				if (needed) problems.push(`${name} is required (32 bytes as 64 hex characters or base64)`);
				return null;
			}
			const decoded = decodeSecret(value);
			if (!decoded) problems.push(`${name} must be 32 bytes as 64 hex characters or base64`);
			return decoded;
		},
		snowflake(name) {
			const value = read(name);
			if (value !== undefined && !SNOWFLAKE.test(value)) problems.push(`${name} must be a Discord id (digits)`);
			return value ?? null;
		},
	};
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
