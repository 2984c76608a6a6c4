import type { ChannelDescription, GuildApi } from '../guild-api.js';
import type { ReportRecord } from './report-record.js';

/** Autocomplete must answer within Discord's 3 s: a channel Discord is slow to describe shows by its id. */
const DESCRIBE_DEADLINE_MS = 1500;

/** `<#123…>` as a client pastes a mention, or the bare id an autocomplete choice carries. */
const CHANNEL_REFERENCE = /^(?:<#)?(\d+)>?$/;

export interface ReportChannel {
	record: ReportRecord;
	/** `deleted` for a report paused because its channel is gone, without asking Discord again. */
	state: ChannelDescription['state'];
	name: string | null;
}

/**
 * Each report's channel as Discord describes it now, in the records' order. A channel known to be gone costs no
 * call; one not described within the deadline (or refused) is `unknown` without a name.
 */
export async function describeReportChannels(
	guildApi: Pick<GuildApi, 'describeChannel'>,
	records: readonly ReportRecord[],
	deadlineMs = DESCRIBE_DEADLINE_MS,
): Promise<ReportChannel[]> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<ChannelDescription>((resolve) => {
		timer = setTimeout(() => resolve({ state: 'unknown', name: null }), deadlineMs);
	});
	try {
		return await Promise.all(
			records.map(async (record): Promise<ReportChannel> => {
				if (record.paused?.reason === 'channelGone') return { record, state: 'deleted', name: null };
				const described = guildApi
					.describeChannel(record.guildId, record.channelId)
					.catch((): ChannelDescription => ({ state: 'unknown', name: null }));
				return { record, ...(await Promise.race([described, late])) };
			}),
		);
	} finally {
		clearTimeout(timer);
	}
}

/**
 * The channel id a `/report remove` value names: an id (what the autocomplete choices carry, a deleted
 * channel's included) or a pasted mention; otherwise a channel name, with or without `#`, matched against
 * the server's report channels. Null when it names none of them.
 */
export function reportChannelNamed(value: string, channels: readonly ReportChannel[]): string | null {
	const typed = value.trim();
	const id = CHANNEL_REFERENCE.exec(typed)?.[1];
	if (id !== undefined) return id;
	const name = typed.replace(/^#/, '').toLowerCase();
	return channels.find((channel) => channel.name?.toLowerCase() === name)?.record.channelId ?? null;
}

/** Whether a value is an id or a mention, so that no channel needs describing to read it. */
export function isChannelReference(value: string): boolean {
	return CHANNEL_REFERENCE.test(value.trim());
}
