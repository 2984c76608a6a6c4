import { WebSocket } from 'ws';
import type { DiscordSandbox } from '../../sandbox/index.js';

type Json = Record<string, unknown>;

/** A bare gateway client (no discord.js): identifies with a shard and keeps what it was sent. */
export interface RawSession {
	/** Guild ids READY listed. */
	readyGuildIds: string[];
	/** Ids of the GUILD_CREATE dispatches received. */
	guildCreateIds: string[];
	/** INTERACTION_CREATE payloads received. */
	interactions: Json[];
	/** Every dispatch received, in order. */
	dispatches: { t: string; d: Json }[];
	/** Resolves with READY's `d`, or rejects with the close code when the gateway closed first. */
	ready: Promise<Json>;
	/** Resolves with the close code once the gateway closed the connection. */
	closed: Promise<number>;
	close(): void;
	/** Drops the TCP connection without a close frame (1006), as a killed process does. */
	kill(): void;
}

/** Connects to the sandbox's gateway and identifies with `shard` ([id, count]) and the bot token. */
export function connectRawSession(sandbox: DiscordSandbox, shard: [number, number], token = sandbox.token): RawSession {
	const ws = new WebSocket(`${sandbox.gatewayUrl}?v=10&encoding=json`);
	const session: Partial<RawSession> = { readyGuildIds: [], guildCreateIds: [], interactions: [], dispatches: [] };
	let onReady: (d: Json) => void = () => undefined;
	let onEarlyClose: (code: number) => void = () => undefined;
	session.ready = new Promise<Json>((resolve, reject) => {
		onReady = resolve;
		onEarlyClose = (code) => reject(Object.assign(new Error(`closed with ${code}`), { code }));
	});
	session.ready.catch(() => undefined);
	session.closed = new Promise<number>((resolve) =>
		ws.on('close', (code) => {
			onEarlyClose(code);
			resolve(code);
		}),
	);
	ws.on('message', (raw) => {
		const message = JSON.parse(raw.toString()) as { op: number; t?: string; d: Json };
		if (message.op === 0 && message.t) session.dispatches!.push({ t: message.t, d: message.d });
		if (message.op === 10) {
			ws.send(JSON.stringify({ op: 2, d: { token, intents: 1, shard, properties: { os: 'linux' } } }));
		} else if (message.t === 'READY') {
			session.readyGuildIds!.push(...(message.d.guilds as { id: string }[]).map((guild) => guild.id));
			onReady(message.d);
		} else if (message.t === 'GUILD_CREATE') session.guildCreateIds!.push(String(message.d.id));
		else if (message.t === 'INTERACTION_CREATE') session.interactions!.push(message.d);
	});
	ws.on('error', () => undefined);
	session.close = () => ws.close(1000);
	session.kill = () => ws.terminate();
	return session as RawSession;
}

/** Answers an interaction the raw way (POST /callback) and returns the HTTP status. */
export async function replyRaw(sandbox: DiscordSandbox, interaction: Json, content: string): Promise<number> {
	const url = `${sandbox.apiUrl}/v10/interactions/${String(interaction.id)}/${String(interaction.token)}/callback`;
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ type: 4, data: { content } }),
	});
	await response.arrayBuffer();
	return response.status;
}

/** Polls `condition` every 10 ms until it holds, or throws after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
