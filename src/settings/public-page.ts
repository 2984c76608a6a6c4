import { createHash, randomBytes } from 'node:crypto';
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import type { Stores } from '../store/open-stores.js';
import { auditTime, postAudit, type AuditDeps } from './audit.js';

// A server's public page: a read-only link `/p/{token}` its admins turn on and off. The tokens live in the `web`
// namespace under the keys the dashboard has always used, so links given out before keep working.

/** 128 random bits: the token sits in a URL that is meant to be shared, and must not be guessable. */
const PUBLIC_TOKEN_BYTES = 16;
/** What a token looks like; anything else is not looked up at all. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

export type PublicPageStores = { stores: Pick<Stores, 'web'> };

/** The store holds a digest of each token, so a copy of the store opens no public page. */
const tokenKey = (token: string) => `public:${createHash('sha256').update(token).digest('base64url')}`;
const guildKey = (guildId: string) => `public-of:${guildId}`;

/** The server's public token, or null while its page is off. */
export async function publicToken(ctx: PublicPageStores, guildId: string): Promise<string | null> {
	const entry = (await ctx.stores.web.get(guildKey(guildId))) as { token: string } | undefined;
	return entry?.token ?? null;
}

/** A new token: the old one (if any) stops working at once. */
export async function enablePublic(ctx: PublicPageStores, guildId: string): Promise<string> {
	const old = await publicToken(ctx, guildId);
	if (old) await ctx.stores.web.delete(tokenKey(old));
	const token = randomBytes(PUBLIC_TOKEN_BYTES).toString('base64url');
	await ctx.stores.web.set(tokenKey(token), { guildId });
	await ctx.stores.web.set(guildKey(guildId), { token });
	return token;
}

export async function disablePublic(ctx: PublicPageStores, guildId: string): Promise<void> {
	const old = await publicToken(ctx, guildId);
	if (old) await ctx.stores.web.delete(tokenKey(old));
	await ctx.stores.web.delete(guildKey(guildId));
}

/** The server a public link shows, or null for a token that is unknown, turned off or not a token at all. */
export async function guildOfPublicToken(ctx: PublicPageStores, token: string): Promise<string | null> {
	if (!TOKEN_SHAPE.test(token)) return null;
	const entry = (await ctx.stores.web.get(tokenKey(token))) as { guildId: string } | undefined;
	return entry?.guildId ?? null;
}

export type PublicPageContext = PublicPageStores & AuditDeps & { now?: () => number };

/**
 * Turns the server's public page on (a new token each time, the old link 404s at once) or off, and posts the audit
 * line. Returns the token now in force, null when off.
 */
export async function setPublicPage(
	ctx: PublicPageContext,
	actor: Actor,
	guildId: string,
	on: boolean,
	options: { guildLocale?: string | null } = {},
): Promise<{ token: string | null }> {
	requireManageServer(actor, 'public-page');
	let token: string | null = null;
	if (on) token = await enablePublic(ctx, guildId);
	else await disablePublic(ctx, guildId);
	ctx.log.info({ guildId, userId: actor.userId, enabled: on }, 'public page changed');
	await postAudit(
		ctx,
		guildId,
		{
			key: on ? 'web.auditPublicOn' : 'web.auditPublicOff',
			vars: { actor: auditActor(actor), when: auditTime(clockOf(ctx)()) },
		},
		{ guildLocale: options.guildLocale ?? null },
	);
	return { token };
}
