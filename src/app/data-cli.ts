// `npm run data -- show|export|forget --member ID | purge --server ID | backup FILE | restore FILE [--replace]`:
// what the bot holds, for a request that reached the host another way. Figures go to stdout as `<name>: <number>`,
// problems to stderr; nothing printed ever holds a key; the exit is 0 or 1.
import { existsSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadDotEnv, loadLinkStoreConfig } from '../config.js';
import type { LinkStoreConfig } from '../config.js';
import { openCoordinator } from '../core/claims.js';
import { DATA_KINDS } from '../core/count-records.js';
import { RECORD_KINDS } from '../core/record-kinds.js';
import { backup, BackupFileError } from '../privacy/backup.js';
import { DataUsageError, parseDataArgs } from '../privacy/data-cli-args.js';
import type { DataCommand } from '../privacy/data-cli-args.js';
import { forgetMember } from '../privacy/forget-member.js';
import { exportMember, showMember } from '../privacy/member-data.js';
import { purgeServer } from '../privacy/purge-server.js';
import { BadBackupLineError, restore, StoreNotEmptyError } from '../privacy/restore.js';
import { sqliteFileOf, storeSchemeOf } from '../store-url.js';
import { openStores } from '../store/open-stores.js';
import { describeStoreFailure } from './store-failure.js';

type Out = Pick<NodeJS.WriteStream, 'write'>;

const labelOf = (id: string) => RECORD_KINDS.find((kind) => kind.id === id)?.label ?? id;

/** Figures by kind in the registry's order, every data kind (zero included) when `all`. */
function kindFigures(counts: Map<string, number>, all = false): [string, number][] {
	const ids = all ? DATA_KINDS.map((kind) => kind.id) : [...counts.keys()];
	return ids.map((id) => [labelOf(id), counts.get(id) ?? 0]);
}

const sum = (counts: Map<string, number>) => [...counts.values()].reduce((total, count) => total + count, 0);

/** Runs one command; resolves to the exit code. */
export async function runData(
	args: string[],
	env: Record<string, string | undefined> = process.env,
	out: Out = process.stdout,
	err: Out = process.stderr,
): Promise<number> {
	let command: DataCommand;
	let config: LinkStoreConfig;
	try {
		command = parseDataArgs(args);
		const secretRequired = command.name === 'forget' || command.name === 'restore';
		config = loadLinkStoreConfig({ secretRequired }, env);
	} catch (error) {
		if (error instanceof DataUsageError || error instanceof ConfigError) {
			err.write(`data: ${error.message}\n`);
			return 1;
		}
		throw error;
	}
	const print = (figures: [string, number][]) => {
		for (const [name, value] of figures) out.write(`${name}: ${value}\n`);
	};

	// Opening a SQLite path creates the file: a mistyped STORE_URL would read as an empty store.
	if (command.name !== 'restore' && storeSchemeOf(config.storeUrl) === 'sqlite') {
		if (!existsSync(sqliteFileOf(config.storeUrl))) {
			err.write(`data: the SQLite file ${sqliteFileOf(config.storeUrl)} does not exist\n`);
			return 1;
		}
	}
	let opened;
	try {
		opened = await openBoth(config.storeUrl);
	} catch (error) {
		err.write(`data: ${describeFailure(error)}\n`);
		return 1;
	}
	const { stores, coordinator } = opened;
	const ctx = {
		stores,
		coordinator,
		config: { storeUrl: config.storeUrl, linkSecret: config.linkSecret ?? Buffer.alloc(0) },
	};
	try {
		switch (command.name) {
			case 'show': {
				const held = await showMember(ctx, command.member);
				print([['records', held.reduce((sum, kind) => sum + kind.count, 0)]]);
				print(held.map(({ kind, count }) => [labelOf(kind), count]));
				return 0;
			}
			case 'export': {
				const exported = await exportMember(ctx, command.member);
				const json = `${JSON.stringify(exported, null, 2)}\n`;
				if (command.out === null) {
					out.write(json);
				} else {
					writeFileSync(command.out, json, { mode: 0o600 });
					print([['records', exported.records.length]]);
				}
				return 0;
			}
			case 'forget': {
				const { deleted, scrubbed } = await forgetMember(ctx, command.member);
				// Totals first, so a forget that found nothing says so.
				print([
					['deleted', sum(deleted)],
					['scrubbed', sum(scrubbed)],
				]);
				print(kindFigures(deleted).map(([name, value]) => [`deleted ${name}`, value]));
				print(kindFigures(scrubbed).map(([name, value]) => [`scrubbed ${name}`, value]));
				return 0;
			}
			case 'purge': {
				const deleted = await purgeServer(ctx, command.server);
				// The total first, as forget does, so a purge that found nothing says so.
				print([['deleted', sum(deleted)]]);
				print(kindFigures(deleted).map(([name, value]) => [`deleted ${name}`, value]));
				return 0;
			}
			case 'backup':
				err.write('data: keys stay sealed in the backup: restoring it needs the same LINK_SECRET\n');
				print(kindFigures(await backup(stores, command.file), true));
				return 0;
			case 'restore': {
				const result = await restore(ctx, command.file, { replace: command.replace });
				print(kindFigures(result.restored, true));
				print([
					['skipped', result.skipped],
					['scrubbed', result.scrubbed],
				]);
				return 0;
			}
			default: {
				const unhandled: never = command;
				return unhandled;
			}
		}
	} catch (error) {
		err.write(`data: ${describeFailure(error)}\n`);
		return 1;
	} finally {
		await coordinator.close();
		await stores.close();
	}
}

/** The store and its claims, or neither. */
async function openBoth(storeUrl: string) {
	const stores = await openStores(storeUrl);
	try {
		return { stores, coordinator: await openCoordinator(storeUrl) };
	} catch (error) {
		await stores.close();
		throw error;
	}
}

/** One line about what failed; a store URL may hold a password, so it is never quoted. */
function describeFailure(error: unknown): string {
	if (error instanceof BadBackupLineError || error instanceof StoreNotEmptyError || error instanceof BackupFileError)
		return error.message;
	return describeStoreFailure(error);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	loadDotEnv();
	process.exitCode = await runData(process.argv.slice(2));
}
