import { PermissionFlagsBits } from 'discord.js';
import type { FacingMessage } from './i18n/render-message.js';

/**
 * The channel permissions the bot needs anywhere in the product, each with its catalogue key
 * (`permissions.<name>`), in the order replies name them.
 */
const PERMISSION_BITS = {
	viewChannel: PermissionFlagsBits.ViewChannel,
	manageChannels: PermissionFlagsBits.ManageChannels,
	connect: PermissionFlagsBits.Connect,
	sendMessages: PermissionFlagsBits.SendMessages,
	embedLinks: PermissionFlagsBits.EmbedLinks,
	attachFiles: PermissionFlagsBits.AttachFiles,
	readMessageHistory: PermissionFlagsBits.ReadMessageHistory,
} as const;
export type BotPermission = keyof typeof PERMISSION_BITS;

export const BOT_PERMISSIONS = Object.keys(PERMISSION_BITS) as BotPermission[];

export function isBotPermission(value: unknown): value is BotPermission {
	return typeof value === 'string' && Object.hasOwn(PERMISSION_BITS, value);
}

/** Which of `needed` the bit field lacks (Administrator lacks nothing). */
export function missingPermissions(granted: bigint, needed: readonly BotPermission[]): BotPermission[] {
	if ((granted & PermissionFlagsBits.Administrator) !== 0n) return [];
	return needed.filter((name) => (granted & PERMISSION_BITS[name]) === 0n);
}

/** `View Channel and Manage Channels` once rendered: the names joined the way the reader's language joins a list. */
export function permissionList(permissions: readonly BotPermission[]): { list: FacingMessage[] } {
	return { list: permissions.map((permission) => ({ key: `permissions.${permission}` as const })) };
}
