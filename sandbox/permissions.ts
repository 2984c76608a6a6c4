/** Discord's permission bits the stand-in checks or hands out (the full list is in `ALL_PERMISSIONS`). */
export const Permission = {
	Administrator: 1n << 3n,
	ManageChannels: 1n << 4n,
	ManageGuild: 1n << 5n,
	ViewChannel: 1n << 10n,
	SendMessages: 1n << 11n,
	ManageMessages: 1n << 13n,
	EmbedLinks: 1n << 14n,
	AttachFiles: 1n << 15n,
	ReadMessageHistory: 1n << 16n,
	UseExternalEmojis: 1n << 18n,
	Connect: 1n << 20n,
	ManageRoles: 1n << 28n,
	UseApplicationCommands: 1n << 31n,
} as const;

/** Every permission Discord defines today (bits 0–52 but 47): what an administrator or the owner has. */
export const ALL_PERMISSIONS = ((1n << 53n) - 1n) & ~(1n << 47n);

/** A channel's permission overwrite as Discord's API carries it: type 0 a role, 1 a member. */
export interface PermissionOverwrite {
	id: string;
	type: 0 | 1;
	allow: string;
	deny: string;
}

/** What the algorithm needs to know of a guild and one member of it. */
export interface PermissionSubject {
	guildId: string;
	ownerId: string;
	/** Every role of the guild with its permissions; `@everyone` has the guild's id. */
	roles: readonly { id: string; permissions: string }[];
	userId: string;
	/** The member's roles; ids the guild does not have grant nothing. */
	memberRoles: readonly string[];
	/** Replaces what the roles grant at guild level (a test's shortcut); overwrites still apply. */
	basePermissions?: bigint;
}

/** Guild-level permissions, as Discord computes them: the owner and administrators get everything. */
export function guildPermissions(subject: PermissionSubject): bigint {
	if (subject.userId === subject.ownerId) return ALL_PERMISSIONS;
	let permissions = subject.basePermissions;
	if (permissions === undefined) {
		const held = new Set([subject.guildId, ...subject.memberRoles]);
		permissions = 0n;
		for (const role of subject.roles) if (held.has(role.id)) permissions |= BigInt(role.permissions);
	}
	return (permissions & Permission.Administrator) !== 0n ? ALL_PERMISSIONS : permissions;
}

/**
 * Permissions in a channel by Discord's documented order: guild level, then the @everyone overwrite, then the
 * member's role overwrites together (deny, then allow), then the member's own overwrite. Administrators skip
 * overwrites.
 */
export function channelPermissions(subject: PermissionSubject, overwrites: readonly PermissionOverwrite[]): bigint {
	const base = guildPermissions(subject);
	if ((base & Permission.Administrator) !== 0n) return ALL_PERMISSIONS;
	let permissions = base;
	const apply = (overwrite: PermissionOverwrite | undefined): void => {
		if (!overwrite) return;
		permissions &= ~BigInt(overwrite.deny);
		permissions |= BigInt(overwrite.allow);
	};
	apply(overwrites.find((o) => o.type === 0 && o.id === subject.guildId));
	let roleAllow = 0n;
	let roleDeny = 0n;
	for (const overwrite of overwrites) {
		if (overwrite.type !== 0 || !subject.memberRoles.includes(overwrite.id)) continue;
		roleAllow |= BigInt(overwrite.allow);
		roleDeny |= BigInt(overwrite.deny);
	}
	permissions &= ~roleDeny;
	permissions |= roleAllow;
	apply(overwrites.find((o) => o.type === 1 && o.id === subject.userId));
	return permissions;
}

/** A permission value a test may give as a bigint, a number or Discord's decimal string. */
export type PermissionInput = bigint | number | string;

export function toPermissionString(value: PermissionInput | undefined): string {
	return value === undefined ? '0' : BigInt(value).toString();
}
