import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Upload } from './messages.js';
import type { Problem } from './problems.js';
import { toDiscordErrors } from './problems.js';
import type { SandboxState } from './state.js';

/** A parsed request as route handlers see it. */
export interface RestRequest {
	method: string;
	/** Path below /api/v10 with decoded segments, e.g. `/webhooks/1/abc/messages/@original`. */
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	authorization: string | undefined;
	/** Parsed JSON, or `payload_json` of a multipart body. */
	body: unknown;
	uploads: Upload[];
}

export interface RestReply {
	status: number;
	body?: unknown;
}

export type Handler = (request: RestRequest, state: SandboxState) => RestReply | Promise<RestReply>;

export interface Route {
	method: string;
	/** Segments; `:name` captures a parameter. */
	pattern: string[];
	/** Needs `Authorization: Bot <token>`; interaction and webhook routes do not. */
	auth: boolean;
	handler: Handler;
}

export function route(method: string, path: string, auth: boolean, handler: Handler): Route {
	return { method, pattern: path.split('/').filter(Boolean), auth, handler };
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

async function readBody(req: IncomingMessage): Promise<{ body: unknown; uploads: Upload[] } | 'invalid'> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return parseBody(Buffer.concat(chunks), req.headers['content-type'] ?? '');
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
		res.writeHead(reply.status).end();
		return;
	}
	const json = JSON.stringify(reply.body);
	res
		.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
		.end(json);
}

/** Serves `/api/v10/...` from `routes` and the uploaded attachment bytes under `/attachments/...`. */
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
		const raw = url.pathname.startsWith('/api/v10/') ? url.pathname.slice('/api/v10'.length) : undefined;
		const segments = raw === undefined ? [] : raw.split('/').filter(Boolean).map(safeDecode);
		const path = raw === undefined ? url.pathname : `/${segments.join('/')}`;
		const found = raw === undefined ? undefined : match(routes, method, segments);
		const request: RestRequest = {
			method,
			path,
			params: found?.params ?? {},
			query: url.searchParams,
			authorization: req.headers.authorization,
			body: undefined,
			uploads: [],
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
			req.resume();
			return send(res, refuse(state, request, 401, 0, '401: Unauthorized'));
		}
		const parsed = await readBody(req);
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
