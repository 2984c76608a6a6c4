// A TCP proxy in front of Redis or PostgreSQL whose behaviour a test switches at will, to play the
// faults a real network and a real server show.
import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

/**
 * - pass: forwards both ways.
 * - refuse: nothing listens (connections are refused); open connections are closed.
 * - reset: every connection, open or new, is reset.
 * - stall: a paused server: connections are accepted, bytes are held and delivered once back to pass.
 * - black-hole: a network that drops everything: accepted, bytes read and thrown away, for good.
 */
export type ProxyMode = 'pass' | 'refuse' | 'reset' | 'stall' | 'black-hole';

export interface TcpProxy {
	/** The upstream URL with host and port replaced by the proxy's. */
	url: string;
	setMode(mode: ProxyMode): Promise<void>;
	close(): Promise<void>;
}

interface Pair {
	client: Socket;
	upstream: Socket | null;
	/** Bytes held while stalled, per direction. */
	toUpstream: Buffer[];
	toClient: Buffer[];
	/** Black-holed connections never forward again. */
	dead: boolean;
}

export async function startTcpProxy(upstreamUrl: string): Promise<TcpProxy> {
	const upstream = new URL(upstreamUrl);
	const upstreamPort = Number(upstream.port);
	let mode: ProxyMode = 'pass';
	const pairs = new Set<Pair>();
	let server: Server | null = null;
	let port = 0;

	const flush = (pair: Pair) => {
		if (pair.dead || !pair.upstream) return;
		for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk);
		for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
	};

	const destroy = (pair: Pair, reset: boolean) => {
		pairs.delete(pair);
		for (const socket of [pair.client, pair.upstream]) {
			if (!socket || socket.destroyed) continue;
			if (reset) socket.resetAndDestroy();
			else socket.destroy();
		}
	};

	const onConnection = (client: Socket) => {
		client.on('error', () => undefined);
		if (mode === 'reset') {
			client.resetAndDestroy();
			return;
		}
		const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [], dead: mode === 'black-hole' };
		pairs.add(pair);
		client.on('close', () => destroy(pair, false));
		client.on('data', (chunk) => {
			if (pair.dead) return;
			if (mode === 'pass' && pair.upstream) pair.upstream.write(chunk);
			else pair.toUpstream.push(chunk);
		});
		if (pair.dead) return;
		const socket = createConnection({ host: upstream.hostname, port: upstreamPort });
		pair.upstream = socket;
		socket.on('error', () => destroy(pair, false));
		socket.on('close', () => destroy(pair, false));
		socket.on('connect', () => {
			if (mode === 'pass') flush(pair);
		});
		socket.on('data', (chunk) => {
			if (pair.dead) return;
			if (mode === 'pass') client.write(chunk);
			else pair.toClient.push(chunk);
		});
	};

	const listen = async () => {
		server = createServer(onConnection);
		await new Promise<void>((resolve, reject) => {
			server?.once('error', reject);
			server?.listen(port, '127.0.0.1', () => resolve());
		});
		const address = server.address();
		if (address && typeof address === 'object') port = address.port;
	};

	const stopListening = async () => {
		const listening = server;
		server = null;
		if (listening) await new Promise<void>((resolve) => listening.close(() => resolve()));
	};

	await listen();
	const url = new URL(upstreamUrl);
	url.hostname = '127.0.0.1';
	url.port = String(port);

	return {
		url: url.toString(),
		setMode: async (next) => {
			mode = next;
			if (next === 'refuse') {
				for (const pair of [...pairs]) destroy(pair, false);
				await stopListening();
				return;
			}
			if (!server) await listen();
			if (next === 'reset') for (const pair of [...pairs]) destroy(pair, true);
			if (next === 'black-hole') for (const pair of pairs) pair.dead = true;
			if (next === 'pass') for (const pair of pairs) flush(pair);
		},
		close: async () => {
			for (const pair of [...pairs]) destroy(pair, false);
			await stopListening();
		},
	};
}
