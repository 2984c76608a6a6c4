// `data restore FILE [--replace]`: a backup back into a store. The whole file is read and checked before anything
// is written, so a bad line changes nothing; a store that holds data is refused unless `replace` (which deletes
// every data record first, the forgotten members' hashes excepted); records of forgotten members are skipped and
// server records naming them are written without their id. Two passes over the file keep memory bounded.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { RECORD_KINDS } from '../core/record-kinds.js';
import type { RecordKind } from '../core/record-kinds.js';
import { KEYV_NAMESPACES_OF_KINDS } from '../core/record-kinds.js';
import type { NamespaceName } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { forgottenHashes, memberHasher } from './forgotten-members.js';
import { scrubMember } from './scrub-member.js';
import { keyvOf, storedRecords } from './stored-records.js';

/** A line that is not a record of a registered data kind; nothing was written. */
export class BadBackupLineError extends Error {
	constructor(
		readonly line: number,
		reason: string,
	) {
		super(`line ${line}: ${reason}`);
		this.name = 'BadBackupLineError';
	}
}

/** The store already holds data and `replace` was not asked for; nothing was written. */
export class StoreNotEmptyError extends Error {
	constructor(readonly records: number) {
		super(`the store already holds ${records} records; --replace deletes them first`);
		this.name = 'StoreNotEmptyError';
	}
}

export interface RestoreResult {
	/** Records written, by the kind's registry id. */
	restored: Map<string, number>;
	/** Records of forgotten members left out. */
	skipped: number;
	/** Server records written without a forgotten member's id. */
	scrubbed: number;
}

const DATA_KINDS = new Map(RECORD_KINDS.filter((kind) => kind.keeping === 'data').map((kind) => [kind.id, kind]));
const FORGOTTEN = 'forgottenMember';

interface Parsed {
	kind: RecordKind;
	namespace: NamespaceName;
	key: string;
	raw: string;
	stored: { value: unknown } & Record<string, unknown>;
}

function parseLine(text: string, number: number): Parsed {
	let line: unknown;
	try {
		line = JSON.parse(text);
	} catch {
		throw new BadBackupLineError(number, 'not JSON');
	}
	const { kind: id, key, raw } = (typeof line === 'object' && line !== null ? line : {}) as Record<string, unknown>;
	const kind = typeof id === 'string' ? DATA_KINDS.get(id) : undefined;
	if (!kind) throw new BadBackupLineError(number, `no data kind ${JSON.stringify(id ?? null)}`);
	const namespace = KEYV_NAMESPACES_OF_KINDS.find((name) => name === kind.namespace);
	if (typeof key !== 'string' || !namespace || !kind.matches(key)) {
		throw new BadBackupLineError(number, `not a key of ${kind.id}`);
	}
	let stored: unknown;
	try {
		stored = typeof raw === 'string' ? JSON.parse(raw) : undefined;
	} catch {
		stored = undefined;
	}
	if (typeof raw !== 'string' || typeof stored !== 'object' || stored === null || !('value' in stored)) {
		throw new BadBackupLineError(number, 'raw is not a stored record');
	}
	return { kind, namespace, key, raw, stored: stored as Parsed['stored'] };
}

async function* linesOf(file: string): AsyncGenerator<Parsed> {
	const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
	let number = 0;
	for await (const text of lines) {
		number += 1;
		yield parseLine(text, number);
	}
}

export async function restore(
	ctx: { stores: Stores; config: { linkSecret: Buffer } },
	file: string,
	options: { replace: boolean },
): Promise<RestoreResult> {
	const { stores } = ctx;
	// First pass: every line checked, the backup's own forgotten members gathered.
	const forgotten = new Set<string>();
	for await (const { kind, key } of linesOf(file)) {
		if (kind.id === FORGOTTEN) forgotten.add(key.slice(kind.prefix.length));
	}
	let held = 0;
	for await (const { kind } of storedRecords(stores, { once: false }))
		if (kind.keeping === 'data' && kind.id !== FORGOTTEN) held += 1;
	if (held > 0 && !options.replace) throw new StoreNotEmptyError(held);
	if (held > 0) {
		for await (const { kind, key, namespace } of storedRecords(stores, { once: false })) {
			if (kind.keeping === 'data' && kind.id !== FORGOTTEN) await keyvOf(stores, namespace).delete(key);
		}
	}
	for (const hash of await forgottenHashes(stores)) forgotten.add(hash);

	const hash = memberHasher(ctx.config.linkSecret);
	const isForgotten = (id: unknown) => typeof id === 'string' && forgotten.has(hash(id));
	const unread = await accountsOnlyForgottenRead(file, isForgotten);
	const result: RestoreResult = { restored: new Map(), skipped: 0, scrubbed: 0 };
	for await (const { kind, namespace, key, raw, stored } of linesOf(file)) {
		const owners = kind.owners(key, stored.value);
		const skipped =
			kind.belongsTo === 'account'
				? owners.accounts.some((account) => unread.has(account))
				: kind.belongsTo === 'member' && owners.members.some(isForgotten);
		if (skipped) {
			result.skipped += 1;
			continue;
		}
		const scrubbed = owners.members.some(isForgotten) ? scrubMember(kind, stored.value, isForgotten) : null;
		if (scrubbed) result.scrubbed += 1;
		const written = scrubbed ? JSON.stringify({ ...stored, value: scrubbed }) : raw;
		await stores.backend.writeRaw(stores.namespace(namespace), { key, raw: written });
		result.restored.set(kind.id, (result.restored.get(kind.id) ?? 0) + 1);
	}
	// A replaced store's old records, a forgotten member's among them, leave no copy beside the data.
	await stores.backend.settle?.();
	return result;
}

/**
 * The history accounts that only forgotten members' links read (their history went with them): a second pass over
 * the file holds only those accounts, never every account of the backup.
 */
async function accountsOnlyForgottenRead(file: string, isForgotten: (id: unknown) => boolean): Promise<Set<string>> {
	const unread = new Set<string>();
	for await (const { kind, key, stored } of linesOf(file)) {
		const owners = kind.owners(key, stored.value);
		if (kind.id === 'link' && owners.members.some(isForgotten))
			for (const account of owners.accounts) unread.add(account);
	}
	if (unread.size === 0) return unread;
	for await (const { kind, key, stored } of linesOf(file)) {
		const owners = kind.owners(key, stored.value);
		const readByOthers = kind.id === 'serverLink' || (kind.id === 'link' && !owners.members.some(isForgotten));
		if (readByOthers) for (const account of owners.accounts) unread.delete(account);
	}
	return unread;
}
