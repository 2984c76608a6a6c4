import type { IncomingMessage } from 'node:http';
import type { AuthFailureLimiter } from './auth-failure-limiter.js';
import { clientAddressKey } from './client-address.js';
import type { ErrorCode } from './http-responses.js';
import { hasKeyLength } from './keys.js';
import type { RateLimiter } from './rate-limit.js';
import type { AuthenticatedAccount, StatsStore } from './service-store.js';

/** An answer other than 200: the error code, its message and the headers that go with it. */
export interface Refusal {
	code: ErrorCode;
	message: string;
	headers: Record<string, string>;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
const CHALLENGE = 'Bearer realm="stats"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="stats", error="invalid_token"';

function readBearer(req: IncomingMessage): { apiKey: string } | Refusal {
	const header = req.headers.authorization;
	if (header === undefined || header.trim() === '') {
		return {
			code: 'unauthorized',
			message: 'send Authorization: Bearer <API key>',
			headers: { 'WWW-Authenticate': CHALLENGE },
		};
	}
	const apiKey = BEARER.exec(header)?.[1];
	if (apiKey === undefined) {
		return {
			code: 'unauthorized',
			message: 'the Authorization header must be "Bearer <API key>"',
			headers: { 'WWW-Authenticate': CHALLENGE },
		};
	}
	return { apiKey };
}

/**
 * The account of the request's bearer key, or the refusal to send: 401 for a missing or failing key, 429
 * once its client address has failed too often this minute or once the key has used its requests.
 * The key is looked up before the address's failures are consulted, so a valid key always passes.
 */
export function authenticateRequest(
	req: IncomingMessage,
	deps: { store: StatsStore; perKey: RateLimiter; failures: AuthFailureLimiter },
): { account: AuthenticatedAccount } | Refusal {
	const bearer = readBearer(req);
	const account = 'apiKey' in bearer && hasKeyLength(bearer.apiKey) ? deps.store.authenticate(bearer.apiKey) : null;
	if (!account) {
		const failure = deps.failures.fail(clientAddressKey(req.socket.remoteAddress));
		if (failure.blocked) {
			const seconds = String(failure.retryAfterSeconds);
			return {
				code: 'rate_limited',
				message: `too many failed authentications from this address; retry in ${seconds} s`,
				headers: { 'Retry-After': seconds },
			};
		}
		if ('code' in bearer) return bearer;
		return {
			code: 'unauthorized',
			message: 'the API key is unknown or revoked',
			headers: { 'WWW-Authenticate': INVALID_TOKEN_CHALLENGE },
		};
	}
	const decision = deps.perKey.take(account.id);
	if (!decision.allowed) {
		const seconds = String(decision.retryAfterSeconds);
		return {
			code: 'rate_limited',
			message: `too many requests for this key; retry in ${seconds} s`,
			headers: { 'Retry-After': seconds },
		};
	}
	return { account };
}
