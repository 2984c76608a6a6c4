import { PermissionFlagsBits } from 'discord.js';
import type { Locale, Translate } from '../i18n/index.js';

/** The channel permissions stat channels and alerts need, in the order replies name them. */
const PERMISSION_BITS = {
	viewChannel: PermissionFlagsBits.ViewChannel,
	manageChannels: PermissionFlagsBits.ManageChannels,
	connect: PermissionFlagsBits.Connect,
	sendMessages: PermissionFlagsBits.SendMessages,
	embedLinks: PermissionFlagsBits.EmbedLinks,
} as const;
export type WatchPermission = keyof typeof PERMISSION_BITS;

const VOICE_CHANNEL_TYPES: readonly number[] = [2, 13];

/** A stat channel is renamed (Manage Channels) and must be seen; a voice channel also needs Connect. */
export function statChannelPermissions(channelType: number | null): WatchPermission[] {
	const needed: WatchPermission[] = ['viewChannel', 'manageChannels'];
	if (channelType !== null && VOICE_CHANNEL_TYPES.includes(channelType)) needed.push('connect');
	return needed;
}

/** An alert posts an embed. */
export const ALERT_PERMISSIONS: readonly WatchPermission[] = ['viewChannel', 'sendMessages', 'embedLinks'];

/** Which of `needed` the bit field lacks (Administrator lacks nothing). */
export function missingPermissions(granted: bigint, needed: readonly WatchPermission[]): WatchPermission[] {
	if ((granted & PermissionFlagsBits.Administrator) !== 0n) return [];
	return needed.filter((name) => (granted & PERMISSION_BITS[name]) === 0n);
}

/** `View Channel and Manage Channels`, joined the way the language joins a list. */
export function permissionNames(t: Translate, locale: Locale, permissions: readonly WatchPermission[]): string {
	return new Intl.ListFormat(locale, { type: 'conjunction' }).format(
		permissions.map((permission) => t(`watch.permissions.${permission}`)),
	);
}
