import { PermissionFlagsBits, type APIOverwrite } from 'discord.js';

/** What the computation needs of a guild and the bot's place in it. */
export interface PermissionSubject {
	guildId: string;
	/** The guild's owner has every permission. */
	ownerId: string | null;
	userId: string;
	/** Every role of the guild with its permission bits; `@everyone` has the guild's id. */
	roles: readonly { id: string; permissions: string }[];
	/** The member's role ids. */
	memberRoles: readonly string[];
}

const ALL = (1n << 64n) - 1n;

/**
 * The member's permissions in a channel by Discord's documented order: the guild's roles (owner and
 * Administrator get everything), then the @everyone overwrite, the member's role overwrites together
 * (deny, then allow), and the member's own overwrite.
 */
export function channelPermissions(subject: PermissionSubject, overwrites: readonly APIOverwrite[]): bigint {
	if (subject.ownerId === subject.userId) return ALL;
	const held = new Set([subject.guildId, ...subject.memberRoles]);
	let permissions = 0n;
	for (const role of subject.roles) if (held.has(role.id)) permissions |= BigInt(role.permissions);
	if ((permissions & PermissionFlagsBits.Administrator) !== 0n) return ALL;
	const apply = (overwrite: APIOverwrite | undefined) => {
		if (!overwrite) return;
		permissions &= ~BigInt(overwrite.deny);
		permissions |= BigInt(overwrite.allow);
	};
	apply(overwrites.find((overwrite) => overwrite.id === subject.guildId));
	let allow = 0n;
	let deny = 0n;
	for (const overwrite of overwrites) {
		if (overwrite.id === subject.guildId || !subject.memberRoles.includes(overwrite.id)) continue;
		allow |= BigInt(overwrite.allow);
		deny |= BigInt(overwrite.deny);
	}
	permissions = (permissions & ~deny) | allow;
	apply(overwrites.find((overwrite) => overwrite.id === subject.userId));
	return permissions;
}

/** The permissions the bot's posts need, named as Discord's channel settings show them. */
export const PERMISSION_NAMES = {
	viewChannel: ['View Channel', PermissionFlagsBits.ViewChannel],
	sendMessages: ['Send Messages', PermissionFlagsBits.SendMessages],
	embedLinks: ['Embed Links', PermissionFlagsBits.EmbedLinks],
	attachFiles: ['Attach Files', PermissionFlagsBits.AttachFiles],
	manageChannels: ['Manage Channels', PermissionFlagsBits.ManageChannels],
	connect: ['Connect', PermissionFlagsBits.Connect],
	readMessageHistory: ['Read Message History', PermissionFlagsBits.ReadMessageHistory],
} as const;

export type NeededPermission = keyof typeof PERMISSION_NAMES;

/** The display names of the needed permissions `permissions` lacks, in the order given. */
export function missingPermissions(permissions: bigint, needed: readonly NeededPermission[]): string[] {
	return needed
		.filter((name) => (permissions & PERMISSION_NAMES[name][1]) === 0n)
		.map((name) => PERMISSION_NAMES[name][0]);
}
