// A server the bot was removed from (GUILD_DELETE without `unavailable`, missing from its shard's READY, or in HTTP
// interactions mode missing from the bot's list of servers): kept until SERVER_DATA_DAYS after `leftAt`, when
// everything the server owns is purged, or until the bot is added back.
import { SERVER_LEFT_PREFIX } from '../core/record-kinds.js';

export const LEFT_SERVER_SCHEMA_VERSION = 1;

export interface LeftServerRecord {
	v: typeof LEFT_SERVER_SCHEMA_VERSION;
	guildId: string;
	/** Epoch ms: when the bot saw itself removed. */
	leftAt: number;
	/**
	 * What told it: the gateway's GUILD_DELETE, the server missing from its shard's READY after a start, or (HTTP
	 * interactions mode, no gateway) missing from the bot's own list of servers.
	 */
	seenBy: 'guildDelete' | 'ready' | 'guildList';
}

export const leftServerKey = (guildId: string): string => `${SERVER_LEFT_PREFIX}${guildId}`;

/** A stored value back into a mark; null when it is not one. */
export function parseLeftServerRecord(raw: unknown): LeftServerRecord | null {
	if (typeof raw !== 'object' || raw === null) return null;
	const record = raw as Partial<LeftServerRecord>;
	if (record.v !== LEFT_SERVER_SCHEMA_VERSION || typeof record.guildId !== 'string') return null;
	if (typeof record.leftAt !== 'number' || !Number.isFinite(record.leftAt)) return null;
	return {
		v: LEFT_SERVER_SCHEMA_VERSION,
		guildId: record.guildId,
		leftAt: record.leftAt,
		seenBy: record.seenBy === 'ready' || record.seenBy === 'guildList' ? record.seenBy : 'guildDelete',
	};
}

const DAY_MS = 86_400_000;

/** When the server's records are purged: SERVER_DATA_DAYS after the removal. */
export const purgeDueAt = (record: Pick<LeftServerRecord, 'leftAt'>, serverDataDays: number): number =>
	record.leftAt + serverDataDays * DAY_MS;
