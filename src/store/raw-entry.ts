/** One stored entry as the backend holds it: the key Keyv callers use, the serialized Keyv value. */
export interface RawEntry {
	key: string;
	raw: string;
}

/** When a serialized Keyv value expires (epoch ms), or null when it does not. */
export function expiryOf(raw: string): number | null {
	try {
		const parsed: unknown = JSON.parse(raw);
		const expires = (parsed as { expires?: unknown } | null)?.expires;
		return typeof expires === 'number' ? expires : null;
	} catch {
		return null;
	}
}
