import type { ServerResponse } from 'node:http';

/** Methods the one resource answers; every other method gets 405 with this as `Allow`. */
export const ALLOWED_METHODS = 'GET, HEAD';

const COMMON_HEADERS = {
	'Content-Type': 'application/json; charset=utf-8',
	'Cache-Control': 'no-store',
	'X-Content-Type-Options': 'nosniff',
};

/** The error codes of the service, each with its HTTP status. */
export const ERROR_STATUS = {
	bad_request: 400,
	unauthorized: 401,
	not_found: 404,
	method_not_allowed: 405,
	request_timeout: 408,
	request_header_fields_too_large: 431,
	rate_limited: 429,
	internal: 500,
	feature_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Writes a JSON answer; a HEAD request gets the same headers (Content-Length included) and no body. */
export function sendJson(
	res: ServerResponse,
	isHead: boolean,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const payload = Buffer.from(JSON.stringify(body), 'utf8');
	res.writeHead(status, { ...COMMON_HEADERS, ...headers, 'Content-Length': String(payload.length) });
	res.end(isHead ? undefined : payload);
}

/** Writes `{"error": {"code", "message"}}` with the code's status. */
export function sendError(
	res: ServerResponse,
	isHead: boolean,
	code: ErrorCode,
	message: string,
	headers: Record<string, string> = {},
): void {
	sendJson(res, isHead, ERROR_STATUS[code], { error: { code, message } }, headers);
}

const RAW_REASONS: Partial<Record<ErrorCode, string>> = {
	request_header_fields_too_large: 'Request Header Fields Too Large',
	request_timeout: 'Request Timeout',
};

/** A complete HTTP/1.1 error response as raw text, for sockets whose request Node could not parse. */
export function rawErrorResponse(code: ErrorCode, message: string): string {
	const body = JSON.stringify({ error: { code, message } });
	const status = ERROR_STATUS[code];
	const reason = RAW_REASONS[code] ?? 'Bad Request';
	const head = [
		`HTTP/1.1 ${status} ${reason}`,
		...Object.entries(COMMON_HEADERS).map(([name, value]) => `${name}: ${value}`),
		`Content-Length: ${Buffer.byteLength(body)}`,
		'Connection: close',
	];
	return `${head.join('\r\n')}\r\n\r\n${body}`;
}
