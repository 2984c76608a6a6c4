import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Upload } from './messages.js';
import type { OAuthGrant } from './oauth.js';
import type { Problem } from './problems.js';
import { toDiscordErrors } from './problems.js';
import type { SandboxState } from './state.js';
import { isGlobalLimitExempt } from './global-limit.js';

/** A parsed request as route handlers see it. */
export interface RestRequest {
	method: string;
	/** Path below /api/v10 with decoded segments, e.g. `/webhooks/1/abc/messages/@original`. */
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	authorization: string | undefined;
	/** Parsed JSON, or `payload_json` of a multipart body; on form routes the form's fields. */
	body: unknown;
	uploads: Upload[];
	/** The request's Content-Type header. */
	contentType?: string;
	/** On routes that take a user's OAuth2 token: the grant behind `Authorization: Bearer …` (none with the bot token). */
	grant?: OAuthGrant;
}

export interface RestReply {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
}

export type Handler = (request: RestRequest, state: SandboxState) => RestReply | Promise<RestReply>;

/**
 * `true`: needs `Authorization: Bot <token>` (interaction, webhook and OAuth2 token routes do not);
 * `'bot-or-bearer'`: the bot token or a user's live OAuth2 access token.
 */
export type RouteAuth = boolean | 'bot-or-bearer';

export interface Route {
	method: string;
	/** Segments; `:name` captures a parameter. */
	pattern: string[];
	auth: RouteAuth;
	handler: Handler;
	/** Takes `application/x-www-form-urlencoded` (the OAuth2 token routes); its fields become `body`. */
	form?: boolean;
}

export function route(
	method: string,
	path: string,
	auth: RouteAuth,
	handler: Handler,
	options: { form?: boolean } = {},
): Route {
	return { method, pattern: path.split('/').filter(Boolean), auth, handler, ...options };
}

/** An OAuth2 error answer (`{error, error_description}`), recorded in `state.rejections` with code 0. */
export function oauthError(
	state: SandboxState,
	request: RestRequest,
	status: number,
	error: string,
	description: string,
): RestReply {
	state.rejections.push({
		method: request.method,
		path: request.path,
		status,
		code: 0,
		message: `${error}: ${description}`,
		at: state.now(),
	});
	return { status, body: { error, error_description: description } };
}

/** A Discord error answer, recorded in `state.rejections`. */
export function refuse(state: SandboxState, request: RestRequest, status: number, code: number, message: string) {
	state.rejections.push({ method: request.method, path: request.path, status, code, message, at: state.now() });
	return { status, body: { message, code } };
}

/** Discord's 50035 answer for an invalid body, recorded in `state.violations`. */
export function invalidFormBody(state: SandboxState, request: RestRequest, problems: Problem[]): RestReply {
	state.recordViolation(request.method, request.path, problems, request.body);
	return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: toDiscordErrors(problems) } };
}

function match(routes: Route[], method: string, segments: string[]) {
	let methodMismatch = false;
	for (const candidate of routes) {
		if (candidate.pattern.length !== segments.length) continue;
		const params: Record<string, string> = {};
		let matched = true;
		for (let i = 0; i < segments.length; i++) {
			const part = candidate.pattern[i]!;
			if (part.startsWith(':')) params[part.slice(1)] = segments[i]!;
			else if (part !== segments[i]) {
				matched = false;
				break;
			}
		}
		if (!matched) continue;
		if (candidate.method === method) return { route: candidate, params };
		methodMismatch = true;
	}
	return { route: undefined, params: {}, methodMismatch };
}

async function readBody(
	req: IncomingMessage,
	form: boolean,
): Promise<{ body: unknown; uploads: Upload[] } | 'invalid'> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const contentType = req.headers['content-type'] ?? '';
	if (!form) return parseBody(Buffer.concat(chunks), contentType);
	// A form route reads form fields only; any other body reaches it as no fields at all, and it says so.
	const fields = isFormBody(contentType) ? new URLSearchParams(Buffer.concat(chunks).toString('utf8')) : undefined;
	return { body: fields ? Object.fromEntries(fields) : undefined, uploads: [] };
}

export function isFormBody(contentType: string | undefined): boolean {
	return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * The route path of a request URL: below `/api/v10`, or for OAuth2 also `/oauth2/…` and `/api/oauth2/…` (Discord's
 * authorization page lives at `https://discord.com/oauth2/authorize`, its token URL at `…/api/oauth2/token`).
 */
function routePath(pathname: string): string | undefined {
	if (pathname.startsWith('/api/v10/')) return pathname.slice('/api/v10'.length);
	if (pathname.startsWith('/oauth2/')) return pathname;
	if (pathname.startsWith('/api/oauth2/')) return pathname.slice('/api'.length);
	return undefined;
}

/** A JSON body, or a multipart one (`payload_json` plus `files[n]` parts) as discord.js and @discordjs/rest send. */
export async function parseBody(
	raw: Buffer,
	contentType: string,
): Promise<{ body: unknown; uploads: Upload[] } | 'invalid'> {
	if (raw.length === 0) return { body: undefined, uploads: [] };
	try {
		if (!contentType.startsWith('multipart/form-data')) return { body: JSON.parse(raw.toString('utf8')), uploads: [] };
		const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
		const uploads: Upload[] = [];
		let body: unknown;
		for (const [name, value] of form) {
			const fileIndex = /^files\[(\d+)\]$/.exec(name)?.[1];
			if (name === 'payload_json' && typeof value === 'string') body = JSON.parse(value);
			else if (fileIndex !== undefined && typeof value !== 'string') {
				uploads.push({
					index: Number(fileIndex),
					name: value.name,
					contentType: value.type || 'application/octet-stream',
					bytes: Buffer.from(await value.arrayBuffer()),
				});
			}
		}
		return { body, uploads };
	} catch {
		return 'invalid';
	}
}

function send(res: ServerResponse, reply: RestReply): void {
	if (reply.body === undefined) {
		res.writeHead(reply.status, reply.headers).end();
		return;
	}
	const json = JSON.stringify(reply.body);
	res
		.writeHead(reply.status, {
			...reply.headers,
			'content-type': 'application/json',
			'content-length': Buffer.byteLength(json),
		})
		.end(json);
}

/** Serves `/api/v10/...` (and OAuth2's `/oauth2/...`) from `routes` and the uploaded attachment bytes under `/attachments/...`. */
export function createRequestListener(state: SandboxState, routes: Route[]) {
	const expectedAuth = `Bot ${state.settings.token}`;
	const listener = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://sandbox');
		const method = req.method ?? 'GET';
		if (method === 'GET' && url.pathname.startsWith('/attachments/')) {
			const file = state.messages.files.get(url.pathname.split('/')[3] ?? '');
			if (!file) return send(res, { status: 404, body: { message: '404: Not Found', code: 0 } });
			res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length }).end(file.bytes);
			return;
		}
		// discord-api-types percent-encodes arguments, so `@original` arrives as `%40original`.
		const raw = routePath(url.pathname);
		const segments = raw === undefined ? [] : raw.split('/').filter(Boolean).map(safeDecode);
		const path = raw === undefined ? url.pathname : `/${segments.join('/')}`;
		const found = raw === undefined ? undefined : match(routes, method, segments);
		if (req.headers.authorization === expectedAuth && !isGlobalLimitExempt(path)) {
			const limited = state.globalLimit.take();
			if (limited) {
				req.resume();
				return send(res, limited);
			}
		}
		const request: RestRequest = {
			method,
			path,
			params: found?.params ?? {},
			query: url.searchParams,
			authorization: req.headers.authorization,
			body: undefined,
			uploads: [],
			contentType: req.headers['content-type'],
		};
		if (!found?.route) {
			req.resume();
			state.unknownRequests.push({ method, path, at: state.now() });
			const status = found?.methodMismatch ? 405 : 404;
			return send(res, {
				status,
				body: { message: status === 405 ? '405: Method Not Allowed' : '404: Not Found', code: 0 },
			});
		}
		if (found.route.auth && req.headers.authorization !== expectedAuth) {
			request.grant = found.route.auth === 'bot-or-bearer' ? state.oauth.bearer(req.headers.authorization) : undefined;
			if (!request.grant) {
				req.resume();
				return send(res, refuse(state, request, 401, 0, '401: Unauthorized'));
			}
		}
		const parsed = await readBody(req, found.route.form === true);
		if (parsed === 'invalid')
			return send(res, refuse(state, request, 400, 50109, 'The request body contains invalid JSON.'));
		request.body = parsed.body;
		request.uploads = parsed.uploads;
		try {
			send(res, await found.route.handler(request, state));
		} catch (error) {
			// A bug in the sandbox must fail the test that hit it, not hide behind discord.js's 5xx retries.
			const problem = {
				path: [],
				code: 'SANDBOX_ERROR',
				message: String((error as Error).message),
				source: 'rules' as const,
			};
			state.recordViolation(method, path, [problem], request.body);
			send(res, { status: 500, body: { message: 'sandbox error', code: 0 } });
		}
	};
	// Benchmarks subtract the stand-in's own work (parsing, schema checks) from the bot's latency.
	return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const started = performance.now();
		try {
			await listener(req, res);
		} finally {
			state.handlingMs += performance.now() - started;
		}
	};
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
