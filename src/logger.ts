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

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace']);
const noop = () => undefined;

/**
 * A child of `parent` whose bindings are built, and redacted, only when it first writes a line at an enabled
 * level. pino's child serializes and redacts its bindings when it is made; one per interaction, most of which
 * write nothing at the default level, was a cost on every member's path and garbage that outlived it.
 */
export function lazyChild(parent: Logger, bindings: () => Record<string, unknown>): Logger {
	let child: Logger | undefined;
	const made = () => (child ??= parent.child(bindings()));
	return new Proxy(parent, {
		get(target, property) {
			if (typeof property === 'string' && LEVELS.has(property) && !target.isLevelEnabled(property)) return noop;
			const logger = made();
			const value: unknown = Reflect.get(logger, property, logger);
			return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(logger) : value;
		},
	});
}
