// Shorthands over the Discord stand-in's public API for the settings tests: members holding roles (Discord sends
// `member.roles` with every interaction) and gateway dispatches other than interactions (GUILD_ROLE_DELETE,
// CHANNEL_DELETE). The bot under test still receives everything over its real gateway connection or HTTP endpoint.
import type { DiscordSandbox } from '../../sandbox/index.js';

/**
 * The roles each member holds in `guildId` (default: the first guild) from now on: `set`, `delete` and `clear` on
 * the returned map go to `sandbox.setMemberRoles`, so change it between interactions to take a role away.
 */
export function withMemberRoles(
	sandbox: DiscordSandbox,
	guildId: string = sandbox.guildIds[0]!,
): Map<string, string[]> {
	return new MemberRoles(sandbox, guildId);
}

class MemberRoles extends Map<string, string[]> {
	constructor(
		private readonly sandbox: DiscordSandbox,
		private readonly guildId: string,
	) {
		super();
	}

	override set(userId: string, roleIds: string[]): this {
		this.sandbox.setMemberRoles(this.guildId, userId, roleIds);
		return super.set(userId, roleIds);
	}

	override delete(userId: string): boolean {
		this.sandbox.setMemberRoles(this.guildId, userId, []);
		return super.delete(userId);
	}

	override clear(): void {
		for (const userId of this.keys()) this.sandbox.setMemberRoles(this.guildId, userId, []);
		super.clear();
	}
}

/** A gateway dispatch to the shard owning `guildId`, as Discord sends when a role or channel is deleted. */
export function dispatchGatewayEvent(sandbox: DiscordSandbox, event: string, data: object, guildId: string): void {
	sandbox.dispatchGatewayEvent(event, data, guildId);
}

/** `assertNoViolations`; the stand-in now serves `GET /guilds/{id}/roles`, which `/settings show` asks. */
export function assertNoViolationsBesidesRoleLists(sandbox: DiscordSandbox): void {
	sandbox.assertNoViolations();
}
