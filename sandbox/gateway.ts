import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { ApiUser } from './fixtures.js';
import type { GuildFixture } from './guild.js';
import { shardOf } from './snowflake.js';
import type { InteractionDelivery } from './records.js';

// Dispatches kept for RESUME replay; older ones make the client identify again (INVALID_SESSION false).
const REPLAY_LIMIT = 1000;
// Discord closes with 4011 (sharding required) when one session would hold more guilds than this.
const MAX_GUILDS_PER_SESSION = 2500;

export interface GatewayOptions {
	token: string;
	heartbeatIntervalMs: number;
	botUser: ApiUser;
	applicationId: string;
	guilds: GuildFixture[];
	/** Whether the bot is in the guild now: READY lists only those (default: every guild). */
	botIn?: (guild: GuildFixture) => boolean;
	/** ws://127.0.0.1:PORT/gateway — no query: the client appends `?v=10&encoding=json`. */
	url: () => string;
}

/** A gateway session as a test sees it. */
export interface GatewaySessionInfo {
	sessionId: string;
	shardId: number;
	shardCount: number;
	/** Whether a socket is attached now (false while the client is away or resuming). */
	connected: boolean;
	/** Guilds its READY listed. */
	guildCount: number;
}

/** A session an interaction was sent to over the gateway. */
export type GatewayDelivery = Extract<InteractionDelivery, { via: 'gateway' }>;

interface Session {
	id: string;
	shardId: number;
	shardCount: number;
	guildCount: number;
	seq: number;
	/** Sequence of the last READY/GUILD_CREATE: a resume from before it cannot be replayed. */
	replayFloor: number;
	buffer: { s: number; json: string }[];
	socket: WebSocket | undefined;
	ready: boolean;
}

/** The gateway side: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME with replay, dispatches. */
export class Gateway {
	readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
	identifyCount = 0;
	resumeCount = 0;
	private readonly sessions = new Map<string, Session>();
	private readonly listeners = new Set<() => void>();

	constructor(private readonly options: GatewayOptions) {}

	handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
		const query = new URL(request.url ?? '/', 'http://sandbox').searchParams;
		this.wss.handleUpgrade(request, socket, head, (ws) => {
			if ((query.get('encoding') ?? 'json') !== 'json' || query.has('compress')) {
				ws.close(4000, 'the sandbox speaks JSON without transport compression');
				return;
			}
			this.accept(ws);
		});
	}

	/**
	 * Sends a dispatch to every session whose shard owns `guildId` (shard 0 for DMs), as Discord does: two sessions
	 * identified with the same shard both get it. A session that is away keeps it for replay on RESUME.
	 */
	dispatch(event: string, data: unknown, guildId: string | null): GatewayDelivery[] {
		if (this.identifyCount === 0) throw new Error('no client has identified with the sandbox gateway yet');
		const json = JSON.stringify(data);
		const deliveries: GatewayDelivery[] = [];
		for (const session of this.sessions.values()) {
			const owner = guildId ? shardOf(guildId, session.shardCount) : 0;
			if (owner !== session.shardId) continue;
			this.send(session, event, json, true);
			deliveries.push({
				via: 'gateway',
				sessionId: session.id,
				shardId: session.shardId,
				shardCount: session.shardCount,
				connected: session.socket?.readyState === 1,
			});
		}
		return deliveries;
	}

	/** Closes live connections (of one shard when `shardId` is given) and counts them; 4000 makes discord.js resume. */
	dropConnection(code = 4000, shardId?: number): number {
		let closed = 0;
		for (const session of this.sessions.values()) {
			if (!session.socket || (shardId !== undefined && session.shardId !== shardId)) continue;
			session.socket.close(code, 'dropped by the sandbox');
			closed++;
		}
		return closed;
	}

	isReady(): boolean {
		return [...this.sessions.values()].some((session) => session.ready && session.socket);
	}

	/** Whether connected sessions cover every shard of `[0 … shardCount)`, all identified with `shardCount`. */
	coversShards(shardCount: number): boolean {
		const covered = new Set<number>();
		for (const session of this.sessions.values()) {
			if (session.shardCount === shardCount && session.ready && session.socket) covered.add(session.shardId);
		}
		return covered.size === shardCount;
	}

	sessionInfo(): GatewaySessionInfo[] {
		return [...this.sessions.values()].map((session) => ({
			sessionId: session.id,
			shardId: session.shardId,
			shardCount: session.shardCount,
			connected: session.socket?.readyState === 1,
			guildCount: session.guildCount,
		}));
	}

	/** Resolves when `condition` holds, re-checked after every IDENTIFY/RESUME. */
	waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
		if (condition()) return Promise.resolve();
		return new Promise((resolve, reject) => {
			const listener = (): void => {
				if (!condition()) return;
				this.listeners.delete(listener);
				clearTimeout(timer);
				resolve();
			};
			const timer = setTimeout(() => {
				this.listeners.delete(listener);
				reject(new Error(`sandbox gateway: no ${what} within ${timeoutMs} ms`));
			}, timeoutMs);
			this.listeners.add(listener);
		});
	}

	close(): void {
		for (const client of this.wss.clients) client.terminate();
		this.wss.close();
	}

	private notify(): void {
		for (const listener of [...this.listeners]) listener();
	}

	private accept(ws: WebSocket): void {
		let session: Session | undefined;
		ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.options.heartbeatIntervalMs }, s: null, t: null }));
		ws.on('message', (raw) => {
			let message: { op?: number; d?: Record<string, unknown> | number | null };
			try {
				message = JSON.parse(raw.toString()) as typeof message;
			} catch {
				ws.close(4002, 'Error while decoding payload.');
				return;
			}
			const d = typeof message.d === 'object' && message.d !== null ? message.d : {};
			if (message.op === 1) ws.send('{"op":11,"d":null,"s":null,"t":null}');
			else if (message.op === 2) session = this.identify(ws, d, session);
			else if (message.op === 6) session = this.resume(ws, d);
		});
		ws.on('close', (code) => {
			if (session?.socket !== ws) return;
			session.socket = undefined;
			// A client closing with 1000/1001 ends its session (discord.js destroy()); other codes leave it resumable.
			if (code === 1000 || code === 1001) this.sessions.delete(session.id);
			this.notify();
		});
		ws.on('error', () => undefined);
	}

	private identify(ws: WebSocket, d: Record<string, unknown>, current: Session | undefined): Session | undefined {
		if (current) {
			ws.close(4005, 'Already authenticated.');
			return current;
		}
		if (d.token !== this.options.token) {
			ws.close(4004, 'Authentication failed.');
			return undefined;
		}
		const [shardId = 0, shardCount = 1] = Array.isArray(d.shard) ? (d.shard as unknown[]) : [];
		if (
			!Number.isInteger(shardId) ||
			!Number.isInteger(shardCount) ||
			(shardCount as number) < 1 ||
			(shardId as number) < 0 ||
			(shardId as number) >= (shardCount as number)
		) {
			ws.close(4010, 'Invalid shard.');
			return undefined;
		}
		const shard = { id: shardId as number, count: shardCount as number };
		const botIn = this.options.botIn ?? (() => true);
		const guilds = this.options.guilds.filter((guild) => guild.shardKey % shard.count === shard.id && botIn(guild));
		if (guilds.length > MAX_GUILDS_PER_SESSION) {
			ws.close(4011, 'Sharding required.');
			return undefined;
		}
		// A new IDENTIFY of a shard replaces sessions of that shard nobody is connected to (a restarted process).
		for (const old of this.sessions.values()) {
			if (old.shardId === shard.id && old.shardCount === shard.count && !old.socket) this.sessions.delete(old.id);
		}
		const session: Session = {
			id: randomBytes(16).toString('hex'),
			shardId: shard.id,
			shardCount: shard.count,
			guildCount: guilds.length,
			seq: 0,
			replayFloor: 0,
			buffer: [],
			socket: ws,
			ready: false,
		};
		this.sessions.set(session.id, session);
		const ready = {
			v: 10,
			user: this.options.botUser,
			guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
			session_id: session.id,
			session_type: 'normal',
			resume_gateway_url: this.options.url(),
			application: { id: this.options.applicationId, flags: 0 },
			shard: [session.shardId, session.shardCount],
			private_channels: [],
			relationships: [],
			presences: [],
			guild_join_requests: [],
			geo_ordered_rtc_regions: [],
			user_settings: {},
			auth: {},
		};
		this.send(session, 'READY', JSON.stringify(ready), false);
		for (const guild of guilds) this.send(session, 'GUILD_CREATE', guild.toGatewayJson(), false);
		session.replayFloor = session.seq;
		session.ready = true;
		this.identifyCount++;
		this.notify();
		return session;
	}

	private resume(ws: WebSocket, d: Record<string, unknown>): Session | undefined {
		const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
		const seq = typeof d.seq === 'number' ? d.seq : -1;
		if (d.token !== this.options.token) {
			ws.close(4004, 'Authentication failed.');
			return undefined;
		}
		const oldest = session?.buffer[0]?.s ?? (session ? session.seq + 1 : 0);
		if (!session || seq < session.replayFloor || seq + 1 < oldest) {
			ws.send('{"op":9,"d":false,"s":null,"t":null}');
			return undefined;
		}
		if (session.socket && session.socket !== ws) session.socket.close(4009, 'Session resumed elsewhere.');
		session.socket = ws;
		for (const entry of session.buffer) if (entry.s > seq) ws.send(entry.json);
		this.send(session, 'RESUMED', '{}', false);
		this.resumeCount++;
		this.notify();
		return session;
	}

	private send(session: Session, event: string, data: string, replayable: boolean): void {
		const s = ++session.seq;
		const json = `{"op":0,"t":"${event}","s":${s},"d":${data}}`;
		if (replayable) {
			session.buffer.push({ s, json });
			if (session.buffer.length > REPLAY_LIMIT) session.buffer.shift();
		}
		if (session.socket?.readyState === 1) session.socket.send(json);
	}
}
