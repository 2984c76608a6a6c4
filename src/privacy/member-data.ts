// What the bot holds about one member: the records they own, the server records that name them, and their
// account's daily history when no other link reads that account. One walk of the store; never a key.
import type { Stores } from '../store/open-stores.js';
import { HISTORY_NAMESPACE } from '../store/namespaces.js';
import type { PrivacyContext } from './privacy-context.js';
import { storedRecords } from './stored-records.js';
import { accountOnlyReadBy } from './unread-accounts.js';
import { userLinkKey } from '../links/link-keys.js';
import type { StoredRecord } from './stored-records.js';

type Fields = Record<string, unknown>;

/** One record of the export: its kind's registry id and the record's fields. */
export type ExportedRecord = { kind: string } & Fields;

export interface MemberExport {
	generated_at: string;
	user_id: string;
	records: ExportedRecord[];
}

/**
 * Fields a record never shows: the sealed key, a webhook's sealed URL and signing secret (the server's secrets, not
 * the member's data: its `hint` says which webhook), the secret that sealed them, a schema version.
 */
const NEVER_EXPORTED = new Set(['sealedKey', 'sealedUrl', 'sealedSecret', 'kid', 'v']);

export interface MemberHoldings {
	/** Records of a kind that belongs to members, theirs. */
	owned: StoredRecord[];
	/** Server records whose naming fields name them. */
	named: StoredRecord[];
	/** The history account only their link reads: its id and name. */
	accounts: Map<string, string>;
}

export async function memberHoldings(stores: Stores, userId: string): Promise<MemberHoldings> {
	const owned: StoredRecord[] = [];
	const named: StoredRecord[] = [];
	for await (const record of storedRecords(stores, { once: true })) {
		const { kind, owners } = record;
		if (kind.keeping !== 'data' || !owners.members.includes(userId)) continue;
		if (kind.belongsTo === 'member') owned.push(record);
		else if (kind.namingFields.length > 0) named.push(record);
	}
	return { owned, named, accounts: await accountOnlyReadBy(stores, userLinkKey(userId)) };
}

/** The export: every record the member owns or is named in, history included; a key only by its last 4. */
export async function exportMember(ctx: PrivacyContext, userId: string): Promise<MemberExport> {
	const now = ctx.now ?? Date.now;
	const held = await memberHoldings(ctx.stores, userId);
	const records: ExportedRecord[] = [];
	for (const record of [...held.owned, ...held.named]) records.push(exportedRecord(record, userId));
	for (const [accountId, accountName] of held.accounts) {
		const history = (await ctx.stores.history.get(accountId)) as Fields | undefined;
		if (history) records.push({ kind: 'history', accountName, ...withoutHidden(history) });
	}
	return { generated_at: new Date(now()).toISOString(), user_id: userId, records };
}

function withoutHidden(value: Fields): Fields {
	return Object.fromEntries(Object.entries(value).filter(([field]) => !NEVER_EXPORTED.has(field)));
}

function exportedRecord({ kind, value, owners }: StoredRecord, userId: string): ExportedRecord {
	const fields = withoutHidden(typeof value === 'object' && value !== null ? (value as Fields) : {});
	// A server record tells which server it is; its key may be the only place that says so.
	const guildId = kind.belongsTo === 'server' && owners.servers[0] ? { guildId: owners.servers[0] } : {};
	// A server's goals were set by several people: only the member's own are theirs to see.
	if (Array.isArray(fields.goals) && kind.belongsTo === 'server') {
		fields.goals = fields.goals.filter((goal: unknown) => (goal as Fields | null)?.setBy === userId);
	}
	// `kind` is the export's own field: a record's `kind` (an alert's) is exported as `type`.
	const { kind: type, ...rest } = fields;
	return { kind: kind.id, ...guildId, ...(type === undefined ? {} : { type }), ...rest };
}

/** One line of `show`: a kind, how many records, the first and last date they carry (epoch ms), their servers. */
export interface HeldKind {
	kind: string;
	count: number;
	first: number | null;
	last: number | null;
	/** Servers of the server records that name the member. */
	servers: string[];
	/** The link's account and the key's last 4 characters, the history's days. */
	detail: string | null;
}

const DATE_FIELDS = ['linkedAt', 'createdAt', 'setAt', 'since', 'updatedAt'] as const;

function datesOf(record: ExportedRecord): number[] {
	const dates = DATE_FIELDS.map((field) => record[field]).filter((date): date is number => typeof date === 'number');
	if (Array.isArray(record.goals)) {
		for (const goal of record.goals as Fields[]) if (typeof goal.setAt === 'number') dates.push(goal.setAt);
	}
	if (Array.isArray(record.notes)) {
		for (const note of record.notes as Fields[]) if (typeof note.addedAt === 'number') dates.push(note.addedAt);
	}
	if (record.kind === HISTORY_NAMESPACE && typeof record.days === 'object' && record.days !== null) {
		for (const day of Object.keys(record.days)) dates.push(Date.parse(`${day}T00:00:00Z`));
	}
	return dates;
}

function detailOf(record: ExportedRecord): string | null {
	if (record.kind === 'link') return `${String(record.accountName ?? '?')} …${String(record.keyHint ?? '')}`;
	if (record.kind === HISTORY_NAMESPACE && typeof record.days === 'object' && record.days !== null) {
		return `${Object.keys(record.days).length} days`;
	}
	return null;
}

/** `/privacy show`: the export, summed up by kind, in the export's order. */
export async function showMember(ctx: PrivacyContext, userId: string): Promise<HeldKind[]> {
	const { records } = await exportMember(ctx, userId);
	const byKind = new Map<string, HeldKind>();
	for (const record of records) {
		const held = byKind.get(record.kind) ?? {
			kind: record.kind,
			count: 0,
			first: null,
			last: null,
			servers: [],
			detail: null,
		};
		held.count += 1;
		for (const date of datesOf(record)) {
			held.first = held.first === null ? date : Math.min(held.first, date);
			held.last = held.last === null ? date : Math.max(held.last, date);
		}
		if (typeof record.guildId === 'string' && !held.servers.includes(record.guildId)) held.servers.push(record.guildId);
		held.detail ??= detailOf(record);
		byKind.set(record.kind, held);
	}
	return [...byKind.values()];
}
