import { OTHER, type StoreOperation } from '../metrics/index.js';

const CONNECTION_CODES = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ECONNABORTED',
	'EPIPE',
	'ETIMEDOUT',
	'ENOTFOUND',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EAI_AGAIN',
]);
const CONNECTION_ERROR_NAMES = new Set([
	'SocketClosedUnexpectedlyError',
	'ConnectionTimeoutError',
	'ClientClosedError',
]);

/**
 * The store reports its errors without the operation that met them, so only a lost or refused connection is
 * recognisable; everything else (a missed deadline, a refused write) is counted as `other`.
 */
export function storeOperationOf(error: unknown): StoreOperation | typeof OTHER {
	const seen = new Set<unknown>();
	for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
		seen.add(current);
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'connect';
		if (CONNECTION_ERROR_NAMES.has(current.name) || /^Connection terminated/.test(current.message)) return 'connect';
	}
	return OTHER;
}
