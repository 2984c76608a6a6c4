import { generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { InteractionHandle } from './interaction-handle.js';
import { acceptCallback, refuseCallback } from './interaction-routes.js';
import { checkAgainstSpec } from './openapi-validator.js';
import { parseBody } from './rest-server.js';
import type { RestRequest } from './rest-server.js';
import type { SandboxState } from './state.js';
import type { Json } from './records.js';

/** The User-Agent of Discord's interaction POSTs. */
export const DISCORD_INTERACTIONS_USER_AGENT = 'Discord-Interactions/1.0 (+https://discord.com)';
// How long after the first-response window an answer is still read (and recorded as late) before giving up.
const LATE_ANSWER_GRACE_MS = 2000;
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** What the endpoint answered to one request. */
export interface EndpointAnswer {
	/** 0 when no answer came (refused connection, timeout). */
	status: number;
	contentType: string;
	body: Buffer;
	error?: string;
}

/** What Discord's check of an Interactions Endpoint URL found (it saves the URL only when `ok`). */
export interface EndpointVerification {
	url: string;
	ok: boolean;
	/** A correctly signed PING: wants 200, `Content-Type: application/json` and `{"type":1}`. */
	ping: { status: number; contentType: string; body: string; ok: boolean };
	/** A PING signed with another key: wants 401. */
	badSignature: { status: number; ok: boolean };
	/** Why it is not ok, one line each. */
	problems: string[];
}

/** A request that should be refused (forged, unsigned, replayed with another body) and what the endpoint answered. */
export interface ProbeResult {
	status: number;
	body: string;
}

/** An Ed25519 key pair, as an application has; `publicKeyHex` is what Discord shows as the app's Public Key. */
class Signer {
	readonly publicKeyHex: string;
	private readonly privateKey: KeyObject;

	constructor() {
		const { publicKey, privateKey } = generateKeyPairSync('ed25519');
		this.privateKey = privateKey;
		const { x } = publicKey.export({ format: 'jwk' });
		this.publicKeyHex = Buffer.from(x ?? '', 'base64url').toString('hex');
	}

	/** Hex signature over timestamp + raw body, as in `X-Signature-Ed25519`. */
	sign(timestamp: string, body: Buffer): string {
		return sign(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), this.privateKey).toString('hex');
	}
}

function unixSeconds(): string {
	return String(Math.floor(Date.now() / 1000));
}

/** Delivers interactions as signed POSTs and reads the endpoint's answer as the interaction's first response. */
export class HttpDelivery {
	private readonly signer = new Signer();
	// Signs forged requests: a well-formed signature from a key the bot does not know.
	private readonly forger = new Signer();
	private readonly httpAgent = new HttpAgent({ keepAlive: true });
	private readonly httpsAgent = new HttpsAgent({ keepAlive: true });
	private urls: string[] = [];
	private next = 0;

	constructor(private readonly state: SandboxState) {}

	get publicKeyHex(): string {
		return this.signer.publicKeyHex;
	}

	/** The endpoint URLs in use (several: taken in turn, as a load balancer in front of identical workers would). */
	get endpoints(): readonly string[] {
		return this.urls;
	}

	use(urls: string[]): void {
		for (const url of urls) new URL(url);
		this.urls = [...urls];
		this.next = 0;
	}

	/** The endpoint for the next request, in turn. */
	nextUrl(): string {
		const url = this.urls[this.next++ % this.urls.length];
		if (!url) throw new Error('no interactions endpoint URL is set (useInteractionsEndpoint)');
		return url;
	}

	/** Sends the interaction signed; its answer becomes the first response (or 202: the bot used POST /callback). */
	deliver(handle: InteractionHandle, payload: Json, url = this.nextUrl()): void {
		const body = Buffer.from(JSON.stringify(payload));
		const timestamp = unixSeconds();
		const signature = this.signer.sign(timestamp, body);
		handle.deliveredTo.push({ via: 'http', url });
		const timeoutMs = this.state.settings.interactionTimeoutMs + LATE_ANSWER_GRACE_MS;
		handle.httpSettled = this.post(url, body, this.headers(timestamp, signature), timeoutMs).then((answer) => {
			handle.http = {
				url,
				timestamp,
				signature,
				body,
				status: answer.status,
				contentType: answer.contentType,
				responseBody: answer.body,
				at: performance.now() - handle.dispatchedAt,
				...(answer.error ? { error: answer.error } : {}),
			};
			// Counted like REST handling, so benchmarks subtract the same stand-in work in both delivery modes.
			const started = performance.now();
			return Promise.resolve(this.applyAnswer(handle, url, answer)).finally(() => {
				this.state.handlingMs += performance.now() - started;
			});
		});
	}

	/** What Discord does when the URL is saved: a signed PING (200 `{"type":1}`) and a bad signature (401). */
	async verify(url: string): Promise<EndpointVerification> {
		const problems: string[] = [];
		const ping = Buffer.from(JSON.stringify(this.pingPayload()));
		const timestamp = unixSeconds();
		const answer = await this.post(url, ping, this.headers(timestamp, this.signer.sign(timestamp, ping)), 3000);
		const text = answer.body.toString('utf8');
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = undefined;
		}
		if (answer.status !== 200) problems.push(`PING answered ${answer.status || answer.error}, not 200`);
		if (!answer.contentType.startsWith('application/json')) {
			problems.push(`PING answered with Content-Type "${answer.contentType}", not application/json`);
		}
		if ((parsed as Json | undefined)?.type !== 1)
			problems.push(`PING answered ${JSON.stringify(text)}, not {"type":1}`);
		else if (this.state.settings.validateSchema) {
			for (const problem of checkAgainstSpec('PongInteractionCallbackRequest', parsed)) {
				problems.push(`PING answer: ${problem.path.join('.') || '(body)'} ${problem.message}`);
			}
		}
		const pingOk = problems.length === 0;
		const bad = await this.forge(this.pingPayload(), url);
		if (bad.status !== 401) problems.push(`a bad signature was answered ${bad.status}, not 401`);
		return {
			url,
			ok: problems.length === 0,
			ping: { status: answer.status, contentType: answer.contentType, body: text, ok: pingOk },
			badSignature: { status: bad.status, ok: bad.status === 401 },
			problems,
		};
	}

	/** Sends `payload` signed with a key that is not the application's. */
	forge(payload: Json, url = this.nextUrl()): Promise<ProbeResult> {
		const body = Buffer.from(JSON.stringify(payload));
		const timestamp = unixSeconds();
		return this.probe(url, body, this.headers(timestamp, this.forger.sign(timestamp, body)));
	}

	/** Sends `payload` without the signature headers. */
	sendUnsigned(payload: Json, url = this.nextUrl()): Promise<ProbeResult> {
		const body = Buffer.from(JSON.stringify(payload));
		const { 'x-signature-ed25519': _s, 'x-signature-timestamp': _t, ...headers } = this.headers('', '');
		return this.probe(url, body, headers);
	}

	/** Re-sends a delivered interaction's signature and timestamp with `alter(payload)` as the body. */
	replay(handle: InteractionHandle, alter: (payload: Json) => Json): Promise<ProbeResult> {
		const sent = handle.http;
		if (!sent) throw new Error(`interaction ${handle.id} was not delivered over HTTP (or has not been answered yet)`);
		const body = Buffer.from(JSON.stringify(alter(JSON.parse(sent.body.toString('utf8')) as Json)));
		if (body.equals(sent.body)) throw new Error('the altered body is identical to the one that was signed');
		return this.probe(sent.url, body, this.headers(sent.timestamp, sent.signature));
	}

	close(): void {
		this.httpAgent.destroy();
		this.httpsAgent.destroy();
	}

	private async probe(url: string, body: Buffer, headers: Record<string, string>): Promise<ProbeResult> {
		const answer = await this.post(url, body, headers, 5000);
		if (answer.status === 0) throw new Error(`interactions endpoint ${url}: ${answer.error}`);
		return { status: answer.status, body: answer.body.toString('utf8') };
	}

	private headers(timestamp: string, signature: string): Record<string, string> {
		return {
			'content-type': 'application/json',
			'user-agent': DISCORD_INTERACTIONS_USER_AGENT,
			'x-signature-ed25519': signature,
			'x-signature-timestamp': timestamp,
		};
	}

	private pingPayload(): Json {
		const { applicationId, botUser } = this.state.settings;
		return {
			app_permissions: '0',
			application_id: applicationId,
			attachment_size_limit: this.state.settings.attachmentSizeLimit,
			authorizing_integration_owners: {},
			entitlements: [],
			id: String(BigInt(applicationId) + 1n),
			token: 'ping',
			type: 1,
			user: { ...botUser, id: '1', username: 'discord', bot: false },
			version: 1,
		};
	}

	/** Applies the endpoint's answer with the rules of POST /callback, so a later callback gets 40060 the same way. */
	private applyAnswer(handle: InteractionHandle, url: string, answer: EndpointAnswer): Promise<void> | void {
		const request: RestRequest = {
			method: 'POST',
			path: `${url} (answer to interaction ${handle.id})`,
			params: { id: handle.id, token: handle.token },
			query: new URLSearchParams(),
			authorization: undefined,
			body: undefined,
			uploads: [],
		};
		const failed = (code: string, message: string): void => {
			this.state.recordViolation('POST', request.path, [{ path: [], code, message, source: 'rules' }], undefined);
		};
		if (answer.status === 0) return failed('INTERACTIONS_ENDPOINT_FAILED', answer.error ?? 'no answer');
		if (answer.status < 200 || answer.status >= 300) {
			return failed('INTERACTIONS_ENDPOINT_FAILED', `the endpoint answered ${answer.status}`);
		}
		if (answer.body.length === 0) {
			// 202 without a body: the bot acknowledged through POST /callback (or not at all, and the user sees a failure).
			if (answer.status !== 202)
				failed('INTERACTION_RESPONSE_EMPTY', `${answer.status} without a body; 202 means "answered by REST"`);
			return;
		}
		const isJson = answer.contentType.startsWith('application/json');
		if (!isJson && !answer.contentType.startsWith('multipart/form-data')) {
			refuseCallback(this.state, handle, request, 'http', {
				path: [],
				code: 'CONTENT_TYPE_INVALID',
				message: `the answer's Content-Type is "${answer.contentType}", not application/json`,
				source: 'rules',
			});
			return;
		}
		return parseBody(answer.body, answer.contentType).then((parsed) => {
			if (parsed === 'invalid') {
				request.body = answer.body.toString('utf8');
				refuseCallback(this.state, handle, request, 'http', {
					path: [],
					code: 'BODY_INVALID_JSON',
					message: 'the answer is not valid JSON',
					source: 'rules',
				});
				return;
			}
			request.body = parsed.body;
			request.uploads = parsed.uploads;
			acceptCallback(this.state, handle, request, 'http');
		});
	}

	private post(url: string, body: Buffer, headers: Record<string, string>, timeoutMs: number): Promise<EndpointAnswer> {
		const target = new URL(url);
		const secure = target.protocol === 'https:';
		const send = secure ? httpsRequest : httpRequest;
		return new Promise((resolve) => {
			const fail = (error: string): void => resolve({ status: 0, contentType: '', body: Buffer.alloc(0), error });
			const req = send(
				target,
				{
					method: 'POST',
					headers: { ...headers, 'content-length': String(body.length) },
					agent: secure ? this.httpsAgent : this.httpAgent,
					signal: AbortSignal.timeout(timeoutMs),
				},
				(res) => {
					const chunks: Buffer[] = [];
					let size = 0;
					res.on('data', (chunk: Buffer) => {
						size += chunk.length;
						if (size > MAX_ANSWER_BYTES) res.destroy(new Error('answer over 64 MiB'));
						else chunks.push(chunk);
					});
					res.on('end', () =>
						resolve({
							status: res.statusCode ?? 0,
							contentType: String(res.headers['content-type'] ?? ''),
							body: Buffer.concat(chunks),
						}),
					);
					res.on('error', (error) => fail(error.message));
				},
			);
			req.on('error', (error) =>
				fail(error.name === 'AbortError' ? `no answer within ${timeoutMs} ms` : error.message),
			);
			req.end(body);
		});
	}
}
