/** Discord's channel types the product meets (API `type` field). */
export const CHANNEL_TYPES = {
	text: 0,
	voice: 2,
	category: 4,
	announcement: 5,
	stage: 13,
	forum: 15,
} as const;

/**
 * What a feature does with a channel decides which types it may be: posts (reports, alerts, share, audit) go to
 * channels that take messages; a stat channel's name shows in everyone's sidebar and takes no messages.
 */
export type ChannelUse = 'posts' | 'statChannel';

const TYPES_BY_USE: Readonly<Record<ChannelUse, readonly number[]>> = {
	posts: [CHANNEL_TYPES.text, CHANNEL_TYPES.announcement],
	// DESIGN: voice or category channels only; a stage channel's name is an event's, not a sidebar figure's.
	statChannel: [CHANNEL_TYPES.voice, CHANNEL_TYPES.category],
};

/** The channel types a use accepts, in the order slash-command definitions list them (`channel_types`). */
export function channelTypesFor(use: ChannelUse): readonly number[] {
	return TYPES_BY_USE[use];
}

/**
 * Whether a channel of `type` may serve `use`. Null means the type was not given (an old client's option);
 * Discord's own picker enforces the registered types then, so it passes.
 */
export function isChannelFor(use: ChannelUse, type: number | null): boolean {
	return type === null || TYPES_BY_USE[use].includes(type);
}
