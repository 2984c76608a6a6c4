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
