import { CHANNEL_TYPES } from '../channel-kinds.js';
import type { BotPermission } from '../permissions.js';

/** A stat channel is renamed (Manage Channels) and must be seen; a voice channel also needs Connect. */
export function statChannelPermissions(channelType: number | null): BotPermission[] {
	const needed: BotPermission[] = ['viewChannel', 'manageChannels'];
	if (channelType === CHANNEL_TYPES.voice) needed.push('connect');
	return needed;
}

/** An alert posts an embed. */
export const ALERT_PERMISSIONS: readonly BotPermission[] = ['viewChannel', 'sendMessages', 'embedLinks'];
