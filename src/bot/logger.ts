import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Any field that can carry a secret is censored, at the top level and one or two levels down,
 * so a key passed by mistake in a log call never reaches a log line (PITFALLS 6).
 */
const SECRET_FIELDS = ['authorization', 'apiKey', 'key', 'token', 'secret', 'linkSecret', 'discordToken', 'password'];
const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

/** JSON-lines logger; `destination` lets tests capture every line. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
	const options = {
		level,
		base: { service: 'adstats-bot' },
		redact: { paths: REDACT_PATHS, censor: '[redacted]' },
	};
	return destination ? pino(options, destination) : pino(options);
}
