// What the Discord stand-in does not model yet, added from the outside for the settings tests: members
// holding roles (Discord sends `member.roles` with every interaction) and gateway dispatches other than
// interactions (GUILD_ROLE_DELETE, CHANNEL_DELETE). Both reach into the stand-in's private parts on purpose,
// so the bot under test still receives everything over its real gateway connection or HTTP endpoint.
import type { DiscordSandbox } from '../../sandbox/index.js';
import type { Json } from '../../sandbox/types.js';

interface SandboxInternals {
	create(
		type: number,
		data: Json,
		ctx: { user: { id: string } },
		extra?: Json,
	): { handle: unknown; payload: Json & { member?: Json } };
	gateway: { dispatch(event: string, data: unknown, guildId: string | null): unknown[] };
}

/** The roles each member holds from now on; change the map between interactions to take a role away. */
export function withMemberRoles(sandbox: DiscordSandbox): Map<string, string[]> {
	const roles = new Map<string, string[]>();
	const internals = sandbox as unknown as SandboxInternals;
	const create = internals.create.bind(sandbox);
	internals.create = (type, data, ctx, extra) => {
		const created = create(type, data, ctx, extra);
		if (created.payload.member) created.payload.member.roles = [...(roles.get(ctx.user.id) ?? [])];
		return created;
	};
	return roles;
}

/** A gateway dispatch to the shard owning `guildId`, as Discord sends when a role or channel is deleted. */
export function dispatchGatewayEvent(sandbox: DiscordSandbox, event: string, data: Json, guildId: string): void {
	(sandbox as unknown as SandboxInternals).gateway.dispatch(event, data, guildId);
}

/**
 * `assertNoViolations`, except for `GET /guilds/{id}/roles`: Discord serves it (`/settings show` asks it
 * whether a role still exists) but the stand-in does not, and the bot reads that 404 as "cannot tell".
 */
export function assertNoViolationsBesidesRoleLists(sandbox: DiscordSandbox): void {
	const unknown = sandbox.unknownRequests;
	for (let i = unknown.length - 1; i >= 0; i--) {
		if (unknown[i]!.method === 'GET' && /^\/guilds\/\d+\/roles$/.test(unknown[i]!.path)) unknown.splice(i, 1);
	}
	sandbox.assertNoViolations();
}
