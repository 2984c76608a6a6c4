/** What STORE_URL may name: read by config at start-up and by the store when it opens. */

export type StoreScheme = 'sqlite' | 'redis' | 'postgres';

/** Which backend a STORE_URL names, or null when it names none. */
export function storeSchemeOf(storeUrl: string): StoreScheme | null {
	const scheme = /^([a-z]+):\/\//.exec(storeUrl)?.[1];
	if (scheme === 'sqlite') return 'sqlite';
	if (scheme === 'redis' || scheme === 'rediss') return 'redis';
	if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
	return null;
}

/** The path a `sqlite://` STORE_URL names. */
export function sqliteFileOf(storeUrl: string): string {
	return storeUrl.slice('sqlite://'.length);
}

export const STORE_URL_PROBLEM = 'STORE_URL must start with sqlite://, redis:// or postgres://';
