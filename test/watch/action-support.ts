// What the stat channel and alert action tests share: an actor, an audit channel whose lines the test reads, and a
// refusal rendered as the member reads it.
import assert from 'node:assert/strict';
import type { Actor } from '../../src/core/actor.js';
import { UserFacingError } from '../../src/errors.js';
import { renderMessage, translator } from '../../src/i18n/index.js';
import type { WatchActionContext } from '../../src/watch/watch-actions.js';
import { ADMIN, GUILD, openWatchContext, type WatchTestContext } from './support.js';

export const AUDIT = '200000000000000004';

export function actorWith(overrides: Partial<Actor> = {}): Actor {
	return { userId: ADMIN, canManageServer: true, roleIds: [], origin: 'discord', ...overrides };
}

export interface ActionTestContext extends WatchTestContext {
	/** The bot's services with the test's clock. */
	actions: WatchActionContext;
	/** The lines posted to the server's audit channel so far. */
	auditLines(): string[];
}

export async function openActionContext(now: () => number): Promise<ActionTestContext> {
	const env = await openWatchContext(now);
	await env.ctx.settings.update(GUILD, { auditChannelId: AUDIT });
	return {
		...env,
		actions: { ...env.ctx, now },
		auditLines: () =>
			env.guildApi.posts.filter((post) => post.channelId === AUDIT).map((post) => post.message.content ?? ''),
	};
}

/** The refusal `action` ends in: its key, its values and its English words. */
export async function refusal(
	action: Promise<unknown>,
): Promise<{ key: string; vars: Record<string, unknown>; text: string }> {
	const error = await action.then(
		() => null,
		(thrown: unknown) => thrown,
	);
	assert.ok(error instanceof UserFacingError, `expected a refusal, got ${String(error)}`);
	return {
		key: error.key,
		vars: error.vars,
		text: renderMessage(translator('en-US'), { key: error.key, vars: error.vars }),
	};
}
