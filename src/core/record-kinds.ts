// Every kind of record the bot stores, registered once: where it lives, how its key looks (the feature records build
// their keys on the prefixes spelled here), whether it is data or transient, and whom it belongs to. Export, forget,
// purge, backup, restore, `links migrate` and `links count` walk this list, so a feature that stores something new is
// covered by adding its kind here, and test/core/record-kinds.test.ts fails while a stored key matches no kind.
//
// This layer sits below the features (reports, watch, boards, digests, goals, notes): it never imports them, not even their
// types. It reads keys and the raw JSON the store gives back itself; each reader below names the record type whose
// fields it reads, and the test writes every kind through the features' own actions to keep the two in step.
import { historyAccountId } from '../history/account-id.js';
import { isServerLinkKey, isUserLinkKey, serverLinkKey, userLinkKey } from '../links/link-keys.js';
import { CLAIMS_NAMESPACE } from '../store/coordination.js';
import {
	CACHE_NAMESPACE,
	HISTORY_NAMESPACE,
	LINKS_NAMESPACE,
	REPORTS_NAMESPACE,
	SETTINGS_NAMESPACE,
	WATCH_NAMESPACE,
	WEB_NAMESPACE,
} from '../store/namespaces.js';
import type { NamespaceName } from '../store/namespaces.js';
import { REST_BUDGET_NAMESPACE } from '../store/rest-budget-counter.js';

/** Where a kind lives: a Keyv namespace, the claims beside them, or the REST budget's counts. */
export type RecordNamespace = NamespaceName | typeof CLAIMS_NAMESPACE | typeof REST_BUDGET_NAMESPACE;

/** Who a record belongs to or names: Discord user ids, Discord server ids, history account ids. */
export interface RecordOwners {
	members: string[];
	servers: string[];
	/** historyAccountId(accountName): the key of the account's daily history. */
	accounts: string[];
}

/**
 * `data`: kept until someone removes it, exported, backed up and copied by `links migrate`. `transient`: expires
 * on its own within minutes to days (a cache, a claim, a lock, a cooldown, a login state, a rename budget); losing
 * it costs at most a repeated fetch or a short wait, so it is never exported, backed up or migrated.
 */
export type Keeping = 'data' | 'transient';

export interface RecordKind {
	/** Stable name for exports and backups (`"kind"` of a record). */
	id: string;
	/** Plural words for a figure line, `<label>: <number>`. */
	label: string;
	namespace: RecordNamespace;
	/** What every key of the kind starts with ('' when the kind is told apart by `matches` alone). */
	prefix: string;
	/** True for a key (as Keyv callers use it, without the namespace) of this kind. */
	matches(key: string): boolean;
	keeping: Keeping;
	/**
	 * Whose record it is: a member's is deleted when they are forgotten, a server's when it is purged, an account's
	 * when no link reads that account any more. A transient kind without an owner belongs to nobody.
	 */
	belongsTo: 'member' | 'server' | 'account' | null;
	/**
	 * Value fields that name members who do not own the record (`goals[].setBy`: every goal's setBy): forget removes
	 * the member from them and the record stays its owner's.
	 */
	namingFields: readonly string[];
	/** Data that expires on its own (a dashboard session): its count may change between two reads. */
	expires: boolean;
	/** The ids in the key and the stored value (Keyv's `value`, undefined when unreadable). */
	owners(key: string, value: unknown): RecordOwners;
}

/** Shapes the readers rely on; see the record type each is named after. */
type Fields = Record<string, unknown>;

const fieldsOf = (value: unknown): Fields => (typeof value === 'object' && value !== null ? (value as Fields) : {});
const text = (value: unknown): string[] => (typeof value === 'string' && value !== '' ? [value] : []);
const unique = (ids: string[]): string[] => [...new Set(ids)];
const owners = (parts: Partial<RecordOwners>): RecordOwners => ({
	members: unique(parts.members ?? []),
	servers: unique(parts.servers ?? []),
	accounts: unique(parts.accounts ?? []),
});
const NOBODY: RecordOwners = { members: [], servers: [], accounts: [] };

/** The `<segment>` at `index` of a key `a:b:c` (segments after the prefix's). */
const segment = (key: string, index: number): string[] => text(key.split(':')[index]);
const startsWith = (prefix: string) => (key: string) => key.startsWith(prefix);

/** LinkRecord (src/links/link-record.ts): `accountName`, `linkedBy`. */
function linkPeople(value: unknown): { members: string[]; accounts: string[] } {
	const { accountName, linkedBy } = fieldsOf(value);
	return { members: text(linkedBy), accounts: text(accountName).map(historyAccountId) };
}

/** ReportRecord, StatChannelRecord, AlertRecord, BoardRecord: `guildId`, `createdBy`. */
const serverRecord =
	(keyServer: (key: string) => string[]) =>
	(key: string, value: unknown): RecordOwners => {
		const { guildId, createdBy } = fieldsOf(value);
		return owners({ servers: [...keyServer(key), ...text(guildId)], members: text(createdBy) });
	};

/** GoalsRecord (src/goals/goal-record.ts): `goals[].setBy`. */
function goalSetters(value: unknown): string[] {
	const { goals } = fieldsOf(value);
	return Array.isArray(goals) ? goals.flatMap((goal) => text(fieldsOf(goal).setBy)) : [];
}

const HISTORY_KEY = /^[0-9a-f]{64}$/;
/** Settings are keyed by the bare server id (settingsKey in src/settings/settings-store.ts). */
const SETTINGS_KEY = /^[^:]+$/;

export const PUBLIC_LINK_PREFIX = 'public-of:';
export const PUBLIC_TOKEN_PREFIX = 'public:';
export const SESSION_PREFIX = 'session:';
export const LOGIN_STATE_PREFIX = 'state:';
export const REPORT_PREFIX = 'report:';
export const STAT_CHANNEL_PREFIX = 'statchannel:';
export const ALERT_PREFIX = 'alert:';
export const BOARD_PREFIX = 'board:';
export const MEMBER_GOALS_PREFIX = 'goals:user:';
export const SERVER_GOALS_PREFIX = 'goals:server:';
export const MEMBER_NOTES_PREFIX = 'notes:user:';
export const SERVER_NOTES_PREFIX = 'notes:server:';
export const DIGEST_PREFIX = 'digest:';
export const RENAME_BUDGET_PREFIX = 'rename-budget:';
export const COOLDOWN_PREFIX = 'cooldown:';
export const LOCK_PREFIX = 'lock:';
export const FORGOTTEN_MEMBER_PREFIX = 'forgotten:';
export const SERVER_LEFT_PREFIX = 'server-left:';
export const WEBHOOK_PREFIX = 'webhook:';
export const WEBHOOK_QUEUE_PREFIX = 'webhook-queue:';
export const WEBHOOK_LOG_PREFIX = 'webhook-log:';

/**
 * The once-only and lease claims of the periodic work, by prefix, with the part of the key that names an owner:
 * posting slots and firings name their server, a digest's send its member.
 */
const WORK_CLAIMS: ReadonlyArray<[prefix: string, owner: (key: string) => Partial<RecordOwners>]> = [
	['report-post:', (key) => ({ servers: segment(key, 1) })],
	['alert-firing:', (key) => ({ servers: segment(key, 1) })],
	['board-post:', (key) => ({ servers: segment(key, 1) })],
	['digest-send:', (key) => ({ members: segment(key, 1) })],
	['history-pass:', () => ({})],
	['history-pass-lease:', () => ({})],
	['history-prune:', () => ({})],
	['history-sample:', () => ({})],
	['history-sample-lease:', () => ({})],
	// `spread:<job>:<entry key>:<slot>`: the entry key is a record key of the job's kind.
	['spread:', (key) => ownersOfKey(key.split(':').slice(2, -1).join(':'))],
	['stats-flight:', () => ({})],
	// `server-purge:<keyed hash of the server id>`: outlives the purge it guards, so it never names the server.
	['server-purge:', () => ({})],
	// `left-servers-guild-list:<window>`: the one listing of the bot's servers (HTTP interactions mode) in a window.
	['left-servers-guild-list:', () => ({})],
	// `webhook-delivery:<server>:<webhook>:<event>:<attempt>:<due>`: one attempt of one queued delivery.
	['webhook-delivery:', (key) => ({ servers: segment(key, 1) })],
];

const data = { keeping: 'data', expires: false, namingFields: [] } as const;
const transient = { keeping: 'transient', expires: false, namingFields: [], belongsTo: null } as const;

/** In the order `links count` prints them; the first four are its original lines. */
export const RECORD_KINDS: readonly RecordKind[] = [
	{
		...data,
		id: 'link',
		label: 'links',
		namespace: LINKS_NAMESPACE,
		prefix: userLinkKey(''),
		matches: isUserLinkKey,
		belongsTo: 'member',
		owners: (key, value) => {
			const people = linkPeople(value);
			return owners({ members: [...segment(key, 1), ...people.members], accounts: people.accounts });
		},
	},
	{
		...data,
		id: 'serverLink',
		label: 'server links',
		namespace: LINKS_NAMESPACE,
		prefix: serverLinkKey(''),
		matches: isServerLinkKey,
		belongsTo: 'server',
		namingFields: ['linkedBy'],
		owners: (key, value) => owners({ servers: segment(key, 1), ...linkPeople(value) }),
	},
	{
		...data,
		id: 'history',
		label: 'history accounts',
		namespace: HISTORY_NAMESPACE,
		prefix: '',
		matches: (key) => HISTORY_KEY.test(key),
		belongsTo: 'account',
		owners: (key) => owners({ accounts: [key] }),
	},
	{
		...data,
		id: 'report',
		label: 'reports',
		namespace: REPORTS_NAMESPACE,
		prefix: REPORT_PREFIX,
		matches: startsWith(REPORT_PREFIX),
		belongsTo: 'server',
		namingFields: ['createdBy'],
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...data,
		id: 'settings',
		label: 'settings',
		namespace: SETTINGS_NAMESPACE,
		prefix: '',
		matches: (key) => SETTINGS_KEY.test(key),
		belongsTo: 'server',
		// StoredSettings names roles and channels, never a member.
		owners: (key) => owners({ servers: [key] }),
	},
	{
		...data,
		id: 'publicLink',
		label: 'public links',
		namespace: WEB_NAMESPACE,
		prefix: PUBLIC_LINK_PREFIX,
		matches: startsWith(PUBLIC_LINK_PREFIX),
		belongsTo: 'server',
		owners: (key) => owners({ servers: text(key.slice(PUBLIC_LINK_PREFIX.length)) }),
	},
	{
		...data,
		// The same public link by its token's hash, so the public page finds its server (src/settings/public-page.ts).
		id: 'publicLinkToken',
		label: 'public link tokens',
		namespace: WEB_NAMESPACE,
		prefix: PUBLIC_TOKEN_PREFIX,
		matches: startsWith(PUBLIC_TOKEN_PREFIX),
		belongsTo: 'server',
		owners: (_key, value) => owners({ servers: text(fieldsOf(value).guildId) }),
	},
	{
		...data,
		// WebSession (src/web/auth/sessions.ts); kept 7 days, so it is data a member can see and end, yet it expires.
		id: 'session',
		label: 'dashboard sessions',
		namespace: WEB_NAMESPACE,
		prefix: SESSION_PREFIX,
		matches: startsWith(SESSION_PREFIX),
		belongsTo: 'member',
		expires: true,
		owners: (_key, value) => owners({ members: text(fieldsOf(value).userId) }),
	},
	{
		...data,
		id: 'statChannel',
		label: 'stat channels',
		namespace: WATCH_NAMESPACE,
		prefix: STAT_CHANNEL_PREFIX,
		matches: startsWith(STAT_CHANNEL_PREFIX),
		belongsTo: 'server',
		namingFields: ['createdBy'],
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...data,
		id: 'alert',
		label: 'alerts',
		namespace: WATCH_NAMESPACE,
		prefix: ALERT_PREFIX,
		matches: startsWith(ALERT_PREFIX),
		belongsTo: 'server',
		namingFields: ['createdBy'],
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...data,
		id: 'board',
		label: 'boards',
		namespace: WATCH_NAMESPACE,
		prefix: BOARD_PREFIX,
		matches: startsWith(BOARD_PREFIX),
		belongsTo: 'server',
		namingFields: ['createdBy'],
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...data,
		id: 'memberGoals',
		label: 'member goals',
		namespace: WATCH_NAMESPACE,
		prefix: MEMBER_GOALS_PREFIX,
		matches: startsWith(MEMBER_GOALS_PREFIX),
		belongsTo: 'member',
		owners: (key, value) => owners({ members: [...segment(key, 2), ...goalSetters(value)] }),
	},
	{
		...data,
		id: 'serverGoals',
		label: 'server goals',
		namespace: WATCH_NAMESPACE,
		prefix: SERVER_GOALS_PREFIX,
		matches: startsWith(SERVER_GOALS_PREFIX),
		belongsTo: 'server',
		namingFields: ['goals[].setBy'],
		owners: (key, value) => owners({ servers: segment(key, 2), members: goalSetters(value) }),
	},
	{
		...data,
		// NotesRecord (src/notes/note-record.ts): the member's own notes; the key names them, the value no one.
		id: 'memberNotes',
		label: 'member notes',
		namespace: WATCH_NAMESPACE,
		prefix: MEMBER_NOTES_PREFIX,
		matches: startsWith(MEMBER_NOTES_PREFIX),
		belongsTo: 'member',
		owners: (key) => owners({ members: segment(key, 2) }),
	},
	{
		...data,
		// A server's notes keep no member's id (the audit line says who added one), so forget has nothing to scrub.
		id: 'serverNotes',
		label: 'server notes',
		namespace: WATCH_NAMESPACE,
		prefix: SERVER_NOTES_PREFIX,
		matches: startsWith(SERVER_NOTES_PREFIX),
		belongsTo: 'server',
		owners: (key) => owners({ servers: segment(key, 2) }),
	},
	{
		...data,
		// DigestRecord (src/digests/digest-record.ts). The language last seen is its `locale`, kept only for a member
		// who has a digest (src/digests/digest-locale.ts): it is not a record of its own.
		id: 'digest',
		label: 'digests',
		namespace: WATCH_NAMESPACE,
		prefix: DIGEST_PREFIX,
		matches: startsWith(DIGEST_PREFIX),
		belongsTo: 'member',
		owners: (key, value) => owners({ members: [...segment(key, 1), ...text(fieldsOf(value).userId)] }),
	},
	{
		...data,
		// `forgotten:<keyed hash of a member's id>` (src/privacy/forgotten-members.ts), never the id: a restore of an
		// older backup skips that member's records. It names nobody, so nothing deletes it.
		id: 'forgottenMember',
		label: 'forgotten members',
		namespace: WEB_NAMESPACE,
		prefix: FORGOTTEN_MEMBER_PREFIX,
		matches: startsWith(FORGOTTEN_MEMBER_PREFIX),
		belongsTo: null,
		owners: () => NOBODY,
	},
	{
		...data,
		// LeftServerRecord (src/privacy/left-server-record.ts): the bot was removed from the server at `leftAt`; its
		// records are purged SERVER_DATA_DAYS later unless it is added back. The server's, so a purge takes it too.
		id: 'serverLeft',
		label: 'servers marked left',
		namespace: WATCH_NAMESPACE,
		prefix: SERVER_LEFT_PREFIX,
		matches: startsWith(SERVER_LEFT_PREFIX),
		belongsTo: 'server',
		owners: (key, value) => owners({ servers: [...segment(key, 1), ...text(fieldsOf(value).guildId)] }),
	},
	{
		...data,
		// WebhookRecord (src/webhooks/webhook-record.ts): the URL and secret sealed, `createdBy` a member.
		id: 'webhook',
		label: 'webhooks',
		namespace: WATCH_NAMESPACE,
		prefix: WEBHOOK_PREFIX,
		matches: startsWith(WEBHOOK_PREFIX),
		belongsTo: 'server',
		namingFields: ['createdBy'],
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...data,
		// QueuedDelivery: an event waiting for its next attempt (retries survive restarts); names no member.
		id: 'webhookQueue',
		label: 'webhook deliveries waiting',
		namespace: WATCH_NAMESPACE,
		prefix: WEBHOOK_QUEUE_PREFIX,
		matches: startsWith(WEBHOOK_QUEUE_PREFIX),
		belongsTo: 'server',
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...data,
		// DeliveryLog: each webhook's last deliveries (time, event, status), for the manage page.
		id: 'webhookLog',
		label: 'webhook delivery logs',
		namespace: WATCH_NAMESPACE,
		prefix: WEBHOOK_LOG_PREFIX,
		matches: startsWith(WEBHOOK_LOG_PREFIX),
		belongsTo: 'server',
		owners: serverRecord((key) => segment(key, 1)),
	},
	{
		...transient,
		// A removed stat channel's recent renames, kept until Discord's rename window has passed (minutes).
		id: 'renameBudget',
		label: 'rename budgets',
		namespace: WATCH_NAMESPACE,
		prefix: RENAME_BUDGET_PREFIX,
		matches: startsWith(RENAME_BUDGET_PREFIX),
		owners: () => NOBODY,
	},
	{
		...transient,
		id: 'loginState',
		label: 'login states',
		namespace: WEB_NAMESPACE,
		prefix: LOGIN_STATE_PREFIX,
		matches: startsWith(LOGIN_STATE_PREFIX),
		owners: () => NOBODY,
	},
	{
		...transient,
		// Snapshots keyed by a hash of the API key (src/stats-api/cache.ts); refilled on the next fetch.
		id: 'statsCache',
		label: 'cached snapshots',
		namespace: CACHE_NAMESPACE,
		prefix: '',
		matches: () => true,
		owners: () => NOBODY,
	},
	{
		...transient,
		// `cooldown:<action>:<member>` (src/store/cooldowns.ts), seconds long.
		id: 'cooldown',
		label: 'cooldowns',
		namespace: CLAIMS_NAMESPACE,
		prefix: COOLDOWN_PREFIX,
		matches: startsWith(COOLDOWN_PREFIX),
		belongsTo: 'member',
		owners: (key) => owners({ members: text(key.split(':').at(-1)) }),
	},
	{
		...transient,
		// `lock:<record key>` (src/store/locks.ts), held for one read-modify-write.
		id: 'lock',
		label: 'locks',
		namespace: CLAIMS_NAMESPACE,
		prefix: LOCK_PREFIX,
		matches: startsWith(LOCK_PREFIX),
		owners: (key) => owners(ownersOfKey(key.slice(LOCK_PREFIX.length))),
	},
	{
		...transient,
		id: 'workClaim',
		label: 'work claims',
		namespace: CLAIMS_NAMESPACE,
		prefix: '',
		matches: (key) => WORK_CLAIMS.some(([prefix]) => key.startsWith(prefix)),
		owners: (key) => owners(WORK_CLAIMS.find(([prefix]) => key.startsWith(prefix))?.[1](key) ?? {}),
	},
	{
		...transient,
		// Per-second counts of Discord REST calls and a hold after a global 429 (Redis and PostgreSQL only).
		id: 'restBudget',
		label: 'rest budget counts',
		namespace: REST_BUDGET_NAMESPACE,
		prefix: '',
		matches: () => true,
		owners: () => NOBODY,
	},
];

/** Every kind whose key matcher accepts `key` in `namespace`: exactly one for any key the bot writes. */
export function kindsOf(namespace: RecordNamespace, key: string): RecordKind[] {
	return RECORD_KINDS.filter((kind) => kind.namespace === namespace && kind.matches(key));
}

/** The kind of a stored key, or null when no kind (or more than one) claims it. */
export function kindOf(namespace: RecordNamespace, key: string): RecordKind | null {
	const [kind, another] = kindsOf(namespace, key);
	return kind && !another ? kind : null;
}

/**
 * What a key alone tells about its owners, for keys that name a record without its namespace (a lock's, a spread
 * claim's): the first data kind whose key it is.
 */
function ownersOfKey(recordKey: string): Partial<RecordOwners> {
	const kind = RECORD_KINDS.find((candidate) => candidate.keeping === 'data' && candidate.matches(recordKey));
	return kind ? kind.owners(recordKey, undefined) : {};
}

/** Keyv's stored value inside a raw entry (`{ value, expires }`), or undefined when it is not that. */
export function storedValue(raw: string): unknown {
	try {
		return fieldsOf(JSON.parse(raw)).value;
	} catch {
		return undefined;
	}
}

/** The Keyv namespaces that hold a kind (the ones `links migrate` walks). */
export const KEYV_NAMESPACES_OF_KINDS: readonly NamespaceName[] = [
	...new Set(
		RECORD_KINDS.map((kind) => kind.namespace).filter(
			(namespace): namespace is NamespaceName => namespace !== CLAIMS_NAMESPACE && namespace !== REST_BUDGET_NAMESPACE,
		),
	),
];
