import { listenOn } from '../listen.js';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import type { API } from '@discordjs/core/http-only';
import { InteractionType, type APIInteraction } from 'discord.js';
import { fromRawInteraction } from './raw-interaction.js';
import type { InteractionRouter } from './router.js';
import type { Logger } from '../logger.js';
import { inlineResponder, type FirstAnswer } from './inline-responder.js';
import { signatureChecker } from './signature.js';

/** Discord's interactions are small; anything past this is not from Discord and is not buffered. */
export const MAX_INTERACTION_BODY_BYTES = 1024 * 1024;
/** Discord drops the interaction 3 s after sending it; this leaves room for the answer's trip back. */
export const AUTO_DEFER_MS = 2500;
const PATH = '/interactions';

export interface InteractionsServer {
	url: string;
	/** Stops taking connections, lets the router finish what is in flight, then closes the rest. */
	close(drain: () => Promise<void>): Promise<void>;
}

class BodyTooLarge extends Error {}

/**
 * HTTP interactions transport: `POST /interactions`, signed by Discord. No failure lockout on
 * purpose: Discord itself sends badly signed requests to check the endpoint, and locking out its
 * addresses would refuse real interactions and get the URL removed.
 */
export async function startInteractionsServer(options: {
	host: string;
	port: number;
	publicKey: Buffer;
	api: API;
	router: InteractionRouter;
	log: Logger;
	autoDeferMs?: number;
}): Promise<InteractionsServer> {
	const { api, router, log } = options;
	const checkSignature = signatureChecker(options.publicKey);
	const autoDeferMs = options.autoDeferMs ?? AUTO_DEFER_MS;

	async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
		if ((req.url ?? '').split('?')[0] !== PATH) return plain(res, 404, 'not found');
		if (req.method !== 'POST') {
			res.setHeader('allow', 'POST');
			return plain(res, 405, 'method not allowed');
		}
		if (Number(req.headers['content-length'] ?? 0) > MAX_INTERACTION_BODY_BYTES) return tooLarge(req, res);
		let body: Buffer;
		try {
			body = await readBody(req, MAX_INTERACTION_BODY_BYTES);
		} catch (error) {
			if (error instanceof BodyTooLarge) return tooLarge(req, res);
			throw error;
		}
		const signature = header(req, 'x-signature-ed25519');
		if (!checkSignature(signature, header(req, 'x-signature-timestamp'), body)) {
			return plain(res, 401, 'invalid request signature');
		}
		let raw: APIInteraction;
		try {
			raw = JSON.parse(body.toString('utf8')) as APIInteraction;
		} catch {
			return plain(res, 400, 'body is not JSON');
		}
		if (raw.type === InteractionType.Ping) return json(res, 200, { type: 1 });

		const requestLog = log.child({ requestId: raw.id });
		const inline = inlineResponder({
			api,
			raw,
			autoDeferMs,
			log: requestLog,
			send: (answer) => answerWith(res, answer),
		});
		const interaction = fromRawInteraction(raw, inline.responder);
		if (!interaction) {
			inline.cancel();
			return plain(res, 400, 'unsupported interaction type');
		}
		await router.handle(interaction);
		await inline.settle();
	}

	const server = createServer((req, res) => {
		serve(req, res).catch((error: unknown) => {
			log.error({ err: error }, 'interactions endpoint failed on a request');
			if (!res.headersSent) plain(res, 500, 'internal error');
		});
	});
	const origin = await listenOn(server, options.port, options.host);
	const url = `${origin}${PATH}`;
	log.info({ url }, 'interactions endpoint listening');

	return {
		url,
		async close(drain) {
			const closed = new Promise<void>((resolve) => server.close(() => resolve()));
			await drain();
			server.closeAllConnections();
			await closed;
		},
	};
}

function header(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				req.off('data', onData);
				reject(new BodyTooLarge());
				return;
			}
			chunks.push(chunk);
		};
		req.on('data', onData);
		req.once('end', () => resolve(Buffer.concat(chunks)));
		req.once('error', reject);
	});
}

/** Answers 413 and closes the connection, so the rest of an oversized body is never read. */
function tooLarge(req: IncomingMessage, res: ServerResponse): void {
	res.setHeader('connection', 'close');
	plain(res, 413, 'body too large');
	req.resume();
	res.once('finish', () => req.socket.destroySoon());
}

function plain(res: ServerResponse, status: number, text: string): void {
	res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
}

function json(res: ServerResponse, status: number, value: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** Resolves once the answer is handed to the socket, so edits that follow cannot overtake it. */
function answerWith(res: ServerResponse, answer: FirstAnswer): Promise<void> {
	return new Promise((resolve) => {
		if (res.writableEnded || res.destroyed) return resolve();
		res.once('finish', () => resolve());
		res.once('close', () => resolve());
		if (answer.status === 202) res.writeHead(202).end();
		else json(res, 200, answer.body);
	});
}
