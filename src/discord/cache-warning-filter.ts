/**
 * discord.js warns once per process for each manager whose cache is limited while it considers limiting it
 * unsupported. This bot limits four of them on purpose (see client.ts), so the warning tells an operator nothing
 * and trains them to ignore stderr. Node offers only the `--disable-warning` flag to silence a warning type, which
 * every launcher (npm scripts, tests, Docker, systemd units) would have to repeat; so the one message is dropped
 * here instead, in whichever process creates a client. Any other warning passes through, this type included for a
 * manager not listed (GuildManager, say), since limiting one of those would be a new decision.
 */
const WARNING_TYPE = 'UnsupportedCacheOverwriteWarning';
export const INTENTIONALLY_LIMITED_MANAGERS = [
	'ChannelManager',
	'GuildChannelManager',
	'RoleManager',
	'PermissionOverwriteManager',
] as const;
const INTENDED = new RegExp(
	`^Overriding the cache handling for (${INTENTIONALLY_LIMITED_MANAGERS.join('|')}) is unsupported\\b`,
);

let installed = false;

function warningType(typeOrOptions: unknown): unknown {
	if (typeof typeOrOptions === 'string') return typeOrOptions;
	return (typeOrOptions as { type?: unknown } | undefined)?.type;
}

/** Drops discord.js's warning about the managers limited on purpose; idempotent. */
export function filterIntendedCacheWarnings(): void {
	if (installed) return;
	installed = true;
	const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
	process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
		const message = warning instanceof Error ? warning.message : warning;
		if (warningType(rest[0]) === WARNING_TYPE && typeof message === 'string' && INTENDED.test(message)) return;
		emitWarning(warning, ...rest);
	}) as typeof process.emitWarning;
}
