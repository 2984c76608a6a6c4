// A webhook receiver on loopback: records every request it gets and answers what the test queues.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface Answer {
	status: number;
	headers?: Record<string, string>;
	body?: string;
}

export interface Receiver {
	url(path?: string): string;
	port: number;
	received: Received[];
	/** Answers for the next requests, in order; past them, 200. */
	answer(...answers: Answer[]): void;
	/** Forgets what was received and the answers not given yet. */
	reset(): void;
	close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
	const received: Received[] = [];
	const queued: Answer[] = [];
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push({
				path: request.url ?? '',
				headers: request.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			});
			const next = queued.shift() ?? { status: 200 };
			response.writeHead(next.status, next.headers ?? {});
			response.end(next.body ?? '');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		port,
		url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
		received,
		answer: (...answers) => queued.push(...answers),
		reset: () => {
			received.length = 0;
			queued.length = 0;
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
