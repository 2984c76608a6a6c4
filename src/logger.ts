import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Any field that can carry a secret is censored, at the top level and one or two levels down,
 * so a key passed by mistake in a log call never reaches a log line.
 */
const SECRET_FIELDS = ['authorization', 'apiKey', 'key', 'token', 'secret', 'linkSecret', 'discordToken', 'password'];
const REDACT_PATHS = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);

/**
 * discord.js errors carry the request's `url` and `requestBody`: for interactions the URL holds the
 * interaction token and the body the reply itself. Only what identifies the failure is kept.
 */
const REQUEST_FIELDS = ['url', 'requestBody', 'rawError'];

function serializeError(error: unknown): unknown {
	const serialized = stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
	if (!serialized || typeof serialized !== 'object') return serialized;
	for (const field of REQUEST_FIELDS) delete serialized[field];
	return serialized;
}

/** JSON-lines logger; `destination` lets tests capture every line. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
	const options = {
		level,
		base: { service: 'adstats-bot' },
		redact: { paths: REDACT_PATHS, censor: '[redacted]' },
		serializers: { err: serializeError },
	};
	return destination ? pino(options, destination) : pino(options);
}
