import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';

/** close() resolves within this whatever open connections do. */
const CLOSE_DEADLINE_MS = 5000;
/** A client that has not sent its headers by then is dropped (slow-loris). */
const HEADERS_TIMEOUT_MS = 10_000;

export interface RunningWebServer {
	/** e.g. `http://127.0.0.1:8080`. */
	url: string;
	close(): Promise<void>;
}

/**
 * Serves the dashboard on its own node:http server. The adapter leaves the process's global Request and
 * Response alone (`overrideGlobalObjects: false`): discord.js and undici share this process.
 */
export async function startWebServer(
	app: Pick<Hono, 'fetch'>,
	options: { host: string; port: number },
): Promise<RunningWebServer> {
	const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
	const server: Server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: 30_000 }, (req, res) => {
		void listener(req, res);
	});
	const sockets = new Set<Socket>();
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	let closing: Promise<void> | null = null;
	return {
		url: `http://${host}:${address.port}`,
		close: () => {
			closing ??= new Promise<void>((resolve) => {
				const timer = setTimeout(() => {
					for (const socket of sockets) socket.destroy();
					resolve();
				}, CLOSE_DEADLINE_MS);
				timer.unref();
				server.close(() => {
					clearTimeout(timer);
					resolve();
				});
				server.closeIdleConnections();
			});
			return closing;
		},
	};
}
