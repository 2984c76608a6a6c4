import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { linkFailure } from '../error-messages.js';
import type { LinkInfo, LinkStatus } from '../links/link-model.js';
import { auditTime, postAudit, type AuditDeps } from '../settings/audit.js';
import type { CoreContext } from '../core/core-context.js';
import { forgetHistoryAfterUnlink } from './forget-history.js';

// The key a server's admins link for the whole server, from `/server-key` or the dashboard's manage page.

/** What the server key actions use; a CoreContext has all of it. */
export type ServerKeyActionContext = AuditDeps & Pick<CoreContext, 'links' | 'stores' | 'history' | 'now'>;

/** Where the audit line's language comes from when the server's `language` setting is `auto`. */
export interface ServerKeyOptions {
	guildLocale?: string | null;
}

/**
 * Checks the key against the stats API, seals it and stores it as the server's key, then posts the audit line
 * (with the key's last 4 characters only). A refused key changes nothing and becomes `/server-key set`'s words.
 */
export async function setServerKey(
	ctx: Omit<ServerKeyActionContext, 'stores' | 'history'>,
	actor: Actor,
	guildId: string,
	key: string,
	options: ServerKeyOptions = {},
): Promise<LinkInfo> {
	requireManageServer(actor, 'server-key');
	const info = await ctx.links.linkServer(guildId, key, actor.userId).catch((error: unknown) => {
		throw linkFailure(error, 'server-key set');
	});
	await postAudit(
		ctx,
		guildId,
		{
			key: 'audit.serverKeySet',
			vars: { actor: auditActor(actor), keyHint: info.keyHint, when: auditTime(clockOf(ctx)()) },
		},
		{ guildLocale: options.guildLocale ?? null },
	);
	return info;
}

/** Removes the server's key (and the account's history when nothing else reads it); the audit line when it was there. */
export async function removeServerKey(
	ctx: ServerKeyActionContext,
	actor: Actor,
	guildId: string,
	options: ServerKeyOptions = {},
): Promise<{ removed: boolean }> {
	requireManageServer(actor, 'server-key');
	// A record no secret opens still names its account; one that cannot be read at all is removed all the same.
	const linked = await ctx.links.getServerLink(guildId).catch(() => null);
	const removed = await ctx.links.removeServerLink(guildId);
	if (removed) {
		await forgetHistoryAfterUnlink(ctx, linked?.accountName ?? null);
		await postAudit(
			ctx,
			guildId,
			{ key: 'audit.serverKeyRemoved', vars: { actor: auditActor(actor), when: auditTime(clockOf(ctx)()) } },
			{ guildLocale: options.guildLocale ?? null },
		);
	}
	return { removed };
}

/**
 * The server's link as `/server-key status` and the manage page describe it (account, since when, by whom, the
 * 4-character hint, whether a configured secret still opens it); null when the server has none.
 */
export async function serverKeyStatus(
	ctx: Pick<ServerKeyActionContext, 'links'>,
	actor: Actor,
	guildId: string,
): Promise<LinkStatus | null> {
	requireManageServer(actor, 'server-key');
	return ctx.links.getServerLink(guildId);
}
