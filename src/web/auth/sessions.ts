import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type Keyv from 'keyv';
import { disablePublic, enablePublic, guildOfPublicToken, publicToken } from '../../settings/public-page.js';
import type { UserGuild } from './discord-oauth.js';

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const LOGIN_STATE_TTL_MS = 10 * 60 * 1000;
/** 256 bits for session ids and login states. */
const ID_BYTES = 32;

/** What a session holds: who logged in and their server list from login. No OAuth2 token. */
export interface WebSession {
	userId: string;
	username: string;
	globalName: string | null;
	locale: string | null;
	guilds: UserGuild[];
	createdAt: number;
}

export interface LoginState {
	/** A path on this site, checked before it was stored. */
	next: string;
	createdAt: number;
}

export interface WebStore {
	createSession(session: Omit<WebSession, 'createdAt'>): Promise<string>;
	/** Null when unknown, expired or deleted. */
	readSession(id: string): Promise<WebSession | null>;
	deleteSession(id: string): Promise<void>;
	createLoginState(next: string): Promise<string>;
	/**
	 * The login state once: a second call with the same value finds nothing, so a replayed callback fails.
	 * Null when unknown, used or older than 10 minutes.
	 */
	takeLoginState(state: string): Promise<LoginState | null>;
	/** The public page's token store (src/settings/public-page.ts) on this namespace: reads for the pages. */
	publicToken(guildId: string): Promise<string | null>;
	guildOfPublicToken(token: string): Promise<string | null>;
	/**
	 * Kept for the routes written before `setPublicPage`: a change made here skips its Manage Server check and
	 * audit line, so new code calls `setPublicPage` (src/settings/public-page.ts) instead.
	 */
	enablePublic(guildId: string): Promise<string>;
	disablePublic(guildId: string): Promise<void>;
}

/** A random id, URL-safe. */
export function randomId(bytes = ID_BYTES): string {
	return randomBytes(bytes).toString('base64url');
}

/** The store holds a digest of each session id and state, so a copy of the store opens no session. */
function digest(value: string): string {
	return createHash('sha256').update(value).digest('base64url');
}

/** Equal strings in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
	const left = Buffer.from(a);
	const right = Buffer.from(b);
	return left.length === right.length && timingSafeEqual(left, right);
}

export function createWebStore(keyv: Keyv, options: { now?: () => number } = {}): WebStore {
	const now = options.now ?? Date.now;
	const sessionKey = (id: string) => `session:${digest(id)}`;
	const stateKey = (state: string) => `state:${digest(state)}`;
	const publicPages = { stores: { web: keyv } };
	const taking = new Set<string>();
	return {
		async createSession(session) {
			const id = randomId();
			await keyv.set(sessionKey(id), { ...session, createdAt: now() }, SESSION_TTL_MS);
			return id;
		},
		async readSession(id) {
			if (!id) return null;
			const session = (await keyv.get(sessionKey(id))) as WebSession | undefined;
			if (!session || now() - session.createdAt >= SESSION_TTL_MS) return null;
			return session;
		},
		async deleteSession(id) {
			if (id) await keyv.delete(sessionKey(id));
		},
		async createLoginState(next) {
			const state = randomId();
			await keyv.set(stateKey(state), { next, createdAt: now() } satisfies LoginState, LOGIN_STATE_TTL_MS);
			return state;
		},
		async takeLoginState(state) {
			if (!state) return null;
			const key = stateKey(state);
			// Two callbacks racing with one state get one session: across processes only the caller whose delete
			// removed the entry may use it; within one, the second caller stops here (SQLite's delete reads first).
			if (taking.has(key)) return null;
			taking.add(key);
			try {
				const stored = (await keyv.get(key)) as LoginState | undefined;
				if (!stored) return null;
				const removed = await keyv.delete(key);
				if (!removed || now() - stored.createdAt >= LOGIN_STATE_TTL_MS) return null;
				return stored;
			} finally {
				taking.delete(key);
			}
		},
		publicToken: (guildId) => publicToken(publicPages, guildId),
		guildOfPublicToken: (token) => guildOfPublicToken(publicPages, token),
		enablePublic: (guildId) => enablePublic(publicPages, guildId),
		disablePublic: (guildId) => disablePublic(publicPages, guildId),
	};
}
