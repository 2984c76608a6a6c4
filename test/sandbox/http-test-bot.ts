import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from '../stats-api/fault-server.js';

type Json = Record<string, unknown>;

/** What the tiny bot answers to an interaction: a status with a JSON body, or raw bytes with their content type. */
export interface HttpAnswer {
	status: number;
	body?: unknown;
	raw?: { contentType: string; bytes: Buffer };
}

/** A tiny interactions endpoint (not the product bot): verifies signatures like Discord asks, answers PING. */
export interface HttpTestBot {
	url: string;
	/** Interactions that passed the signature check, in arrival order. */
	received: Json[];
	/** Headers of the last request that passed the signature check. */
	lastHeaders: IncomingHttpHeaders | undefined;
	/** Requests answered 401. */
	refused: number;
	/** What the bot does with the next interactions (PINGs are answered before this); tests swap it. */
	handle: (interaction: Json) => Promise<HttpAnswer>;
	/** Skip the signature check, to play a careless endpoint. */
	acceptAnything: boolean;
	stop(): Promise<void>;
}

// DER prefix turning a raw 32-byte Ed25519 key into SubjectPublicKeyInfo, which node:crypto imports.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Starts the endpoint on a free loopback port, trusting `publicKeyHex` (the sandbox's). */
export async function startHttpTestBot(publicKeyHex: string): Promise<HttpTestBot> {
	const key = createPublicKey({
		key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
		format: 'der',
		type: 'spki',
	});
	const bot: Omit<HttpTestBot, 'url' | 'stop'> = {
		received: [],
		lastHeaders: undefined,
		refused: 0,
		handle: async () => ({ status: 500 }),
		acceptAnything: false,
	};
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks);
			const signature = String(req.headers['x-signature-ed25519'] ?? '');
			const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
			const valid =
				/^[0-9a-f]{128}$/.test(signature) &&
				timestamp !== '' &&
				verify(null, Buffer.concat([Buffer.from(timestamp), raw]), key, Buffer.from(signature, 'hex'));
			if (!valid && !bot.acceptAnything) {
				bot.refused++;
				res.writeHead(401).end('invalid request signature');
				return;
			}
			const interaction = JSON.parse(raw.toString('utf8')) as Json;
			bot.lastHeaders = req.headers;
			if (interaction.type === 1) {
				res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":1}');
				return;
			}
			bot.received.push(interaction);
			bot.handle(interaction).then(
				(answer) => {
					if (answer.raw)
						res.writeHead(answer.status, { 'content-type': answer.raw.contentType }).end(answer.raw.bytes);
					else if (answer.body === undefined) res.writeHead(answer.status).end();
					else res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
				},
				() => res.writeHead(500).end(),
			);
		});
	});
	const listening = await listenOnLoopback(server);
	return Object.assign(bot, { url: `${listening.url}/interactions`, stop: listening.close });
}
