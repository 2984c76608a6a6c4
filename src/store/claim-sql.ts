// The claim row, the same on PostgreSQL and SQLite: one row per key, taken over only once expired.
export const CLAIMS_TABLE = 'adstats_claims';

export const CREATE_CLAIMS_TABLE = `CREATE TABLE IF NOT EXISTS ${CLAIMS_TABLE} (
	key TEXT PRIMARY KEY,
	token TEXT NOT NULL,
	expires_at BIGINT NOT NULL
)`;

/** Parameters: key, token, expires_at, now. One row back means "claimed". */
export const TAKE_CLAIM = (placeholders: [string, string, string, string]) => {
	const [key, token, expiresAt, now] = placeholders;
	return `INSERT INTO ${CLAIMS_TABLE} (key, token, expires_at) VALUES (${key}, ${token}, ${expiresAt})
	ON CONFLICT (key) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at
	WHERE ${CLAIMS_TABLE}.expires_at <= ${now}
	RETURNING token`;
};

/** Claim keys a page at a time, in key order; parameters: LIKE pattern, the last key of the page before. */
export const CLAIM_KEYS_PAGE = 500;
export const LIST_CLAIM_KEYS = (placeholders: [string, string]) =>
	`SELECT key FROM ${CLAIMS_TABLE} WHERE key LIKE ${placeholders[0]} ESCAPE '\\' AND key > ${placeholders[1]} ORDER BY key LIMIT ${CLAIM_KEYS_PAGE}`;

/** A LIKE pattern for keys starting with `prefix`. */
export const likePrefix = (prefix: string): string => `${prefix.replace(/[\\%_]/g, '\\$&')}%`;

/** Every key starting with `prefix`, one LIST_CLAIM_KEYS page at a time. */
export async function* pagedClaimKeys(
	prefix: string,
	page: (pattern: string, after: string) => Promise<string[]>,
): AsyncGenerator<string> {
	let after = '';
	for (;;) {
		const keys = await page(likePrefix(prefix), after);
		yield* keys;
		const last = keys.at(-1);
		if (last === undefined || keys.length < CLAIM_KEYS_PAGE) return;
		after = last;
	}
}
