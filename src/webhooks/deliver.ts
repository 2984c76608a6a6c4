// One HTTP attempt to a webhook: the host resolved and every address checked now (DNS may have changed since the
// last attempt), the connection made to those addresses only, no redirect followed, 10 s at most, 4 KB read.
import type { LookupAddress } from 'node:dns';
import type { Dispatcher } from 'undici';
import { undici } from '../lazy-packages.js';
import {
	checkWebhookUrl,
	WebhookUrlRefusedError,
	type AllowList,
	type CheckedAddress,
	type Resolve,
} from './address-guard.js';
import type { Attempt } from './formats.js';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The most of an answer read: enough for a Discord error code, never a receiver's whole page. */
export const MAX_ANSWER_BYTES = 4 * 1024;
/** Discord's "Unknown Webhook": the webhook was deleted. */
const DISCORD_UNKNOWN_WEBHOOK = 10015;

export type AttemptFailure = 'status' | 'timeout' | 'network' | 'refused' | 'redirect';

export type AttemptResult =
	| { kind: 'delivered'; status: number }
	/** The receiver says the webhook is gone (410, a deleted Discord webhook): disable at once. */
	| { kind: 'gone'; status: number }
	| { kind: 'failed'; status: number | null; failure: AttemptFailure; retryAfterMs: number | null };

export interface DeliverOptions {
	allow: AllowList;
	resolve: Resolve;
	timeoutMs?: number;
	now?: () => number;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A lookup that answers with the addresses already checked: the socket never asks DNS again. */
function pinnedLookup(addresses: CheckedAddress[]) {
	return (_host: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
		const wanted = options.family === 4 || options.family === 6 ? options.family : null;
		const usable = addresses.filter(({ family }) => wanted === null || family === wanted);
		if (usable.length === 0) {
			callback(Object.assign(new Error('no checked address of that family'), { code: 'ENOTFOUND' }), '', 0);
			return;
		}
		if (options.all)
			callback(
				null,
				usable.map(({ address, family }) => ({ address, family })),
			);
		else callback(null, usable[0]!.address, usable[0]!.family);
	};
}

/** Drops what is left of an answer; the abort that ends it is the intended end, not an error to throw. */
function dropBody(body: Dispatcher.ResponseData['body']): void {
	body.on('error', () => undefined);
	body.destroy();
}

/** Reads at most MAX_ANSWER_BYTES of the answer, then drops the rest. */
async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			const bytes = Buffer.from(chunk as Uint8Array);
			chunks.push(bytes.subarray(0, MAX_ANSWER_BYTES - size));
			size += bytes.length;
			if (size >= MAX_ANSWER_BYTES) break;
		}
	} finally {
		dropBody(body);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** Retry-After in ms (seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
	const value = Array.isArray(header) ? header[0] : header;
	if (value === undefined || value.trim() === '') return null;
	if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
	const at = Date.parse(value);
	return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function isDeletedDiscordWebhook(status: number, answer: string): boolean {
	if (status !== 404) return false;
	try {
		return (JSON.parse(answer) as { code?: unknown }).code === DISCORD_UNKNOWN_WEBHOOK;
	} catch {
		return false;
	}
}

/** Sends one attempt; never throws: every way it can end is an AttemptResult. */
export async function deliverOnce(url: string, attempt: Attempt, options: DeliverOptions): Promise<AttemptResult> {
	const now = options.now ?? Date.now;
	let checked;
	try {
		checked = await checkWebhookUrl(url, options.allow, options.resolve);
	} catch (error) {
		if (error instanceof WebhookUrlRefusedError) {
			return { kind: 'failed', status: null, failure: 'refused', retryAfterMs: null };
		}
		throw error;
	}
	const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
	const { Agent, request } = undici();
	const agent = new Agent({
		connect: { lookup: pinnedLookup(checked.addresses) as never, timeout: timeoutMs },
		headersTimeout: timeoutMs,
		bodyTimeout: timeoutMs,
		keepAliveTimeout: 1,
	});
	try {
		const answer = await request(checked.url, {
			method: 'POST',
			headers: attempt.headers,
			body: attempt.body,
			dispatcher: agent,
			signal: AbortSignal.timeout(timeoutMs),
		});
		const status = answer.statusCode;
		// A 2xx is delivered once its status line came: a body that then stalls must not have the event sent again.
		if (status >= 200 && status < 300) {
			dropBody(answer.body);
			return { kind: 'delivered', status };
		}
		const text = await readCapped(answer.body);
		if (status === 410 || isDeletedDiscordWebhook(status, text)) return { kind: 'gone', status };
		const failure: AttemptFailure = status >= 300 && status < 400 ? 'redirect' : 'status';
		const wait = status === 429 || status === 503 ? retryAfterMs(answer.headers['retry-after'], now()) : null;
		return { kind: 'failed', status, failure, retryAfterMs: wait };
	} catch (error) {
		const name = (error as { name?: string; code?: string }).name ?? '';
		const code = (error as { code?: string }).code ?? '';
		const timedOut = name === 'TimeoutError' || name === 'AbortError' || code.includes('TIMEOUT');
		return { kind: 'failed', status: null, failure: timedOut ? 'timeout' : 'network', retryAfterMs: null };
	} finally {
		await agent.destroy().catch(() => undefined);
	}
}
