import type { ApplicationCommandOptionAllowedChannelTypes } from 'discord.js';
import { channelTypesFor, type ChannelUse } from '../../src/channel-kinds.js';

/** A channel option's `channel_types`, from the one place that says which types a use accepts. */
export function optionChannelTypes(use: ChannelUse): readonly ApplicationCommandOptionAllowedChannelTypes[] {
	// Discord's builder types its own channel type values; ours are the same numbers.
	return channelTypesFor(use) as readonly ApplicationCommandOptionAllowedChannelTypes[];
}
