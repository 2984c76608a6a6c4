// `npm run links -- reseal | migrate --to <STORE_URL> | count | check`: store maintenance. Figures go to
// stdout as `<name>: <number>`, progress and problems to stderr; nothing printed ever holds a key. It sits in
// src/app because count and migrate walk the registry of record kinds (src/core), above the links.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadDotEnv, loadLinkStoreConfig } from '../config.js';
import { countFigures, figuresOf } from '../core/count-records.js';
import type { CountLine } from '../core/count-records.js';
import { migrateRecords } from '../core/migrate-records.js';
import { checkLinks } from '../links/check-links.js';
import { parseLinksArgs, UsageError } from '../links/cli-args.js';
import type { LinksCommand } from '../links/cli-args.js';
import { createKeyring } from '../links/link-record.js';
import { resealLinks } from '../links/reseal-links.js';
import { sqliteFileOf, storeSchemeOf } from '../store-url.js';
import { openStores } from '../store/open-stores.js';
import { openCoordinator } from '../store/coordination.js';
import { checkWebhooks, resealWebhooks, type WebhookSealContext } from '../webhooks/reseal-webhooks.js';
import type { Stores } from '../store/open-stores.js';
import { describeStoreFailure } from './store-failure.js';

const EXIT_USAGE = 2;
const PROGRESS_EVERY = 100;

const print = (figures: CountLine[]) => {
	for (const [name, value] of figures) process.stdout.write(`${name}: ${value}\n`);
};
const progressLine = (verb: string) => (done: number) => {
	if (done % PROGRESS_EVERY === 0) process.stderr.write(`${verb} ${done} records so far\n`);
};

/** Runs `fn` with what the webhooks' store needs: its locks come from a coordinator on the same store. */
async function withWebhookSeals<T>(
	stores: Stores,
	config: { storeUrl: string; linkSecret: Buffer | null; linkSecretPrevious: Buffer | null },
	fn: (ctx: WebhookSealContext) => Promise<T>,
): Promise<T> {
	const coordinator = await openCoordinator(config.storeUrl);
	try {
		const linkSecret = config.linkSecret ?? Buffer.alloc(0);
		return await fn({ stores, coordinator, config: { ...config, linkSecret } });
	} finally {
		await coordinator.close();
	}
}

/** Runs one command; resolves to the exit code. */
export async function runLinks(args: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
	let command: LinksCommand;
	let config;
	try {
		command = parseLinksArgs(args);
		config = loadLinkStoreConfig({ secretRequired: command.name === 'check' || command.name === 'reseal' }, env);
		if (command.name === 'migrate' && !storeSchemeOf(command.to)) {
			throw new UsageError('--to must start with sqlite://, redis:// or postgres://');
		}
		if (command.name === 'migrate' && command.to === config.storeUrl) {
			throw new UsageError('--to names the store STORE_URL already names');
		}
	} catch (error) {
		if (error instanceof UsageError || error instanceof ConfigError) {
			process.stderr.write(`links: ${error.message}\n`);
			return EXIT_USAGE;
		}
		throw error;
	}

	const opened: Stores[] = [];
	const open = async (url: string, mustExist: boolean) => {
		// Opening a SQLite path creates the file: a mistyped STORE_URL would read as an empty store.
		if (mustExist && storeSchemeOf(url) === 'sqlite' && !existsSync(sqliteFileOf(url))) {
			throw new Error(`the SQLite file ${sqliteFileOf(url)} does not exist`);
		}
		const stores = await openStores(url);
		opened.push(stores);
		return stores;
	};
	try {
		const stores = await open(config.storeUrl, true);
		switch (command.name) {
			case 'count':
				print(await countFigures(stores));
				return 0;
			case 'check': {
				const keyring = createKeyring(config.linkSecret ?? Buffer.alloc(0), config.linkSecretPrevious);
				const links = await checkLinks(stores, keyring);
				// Webhooks' URLs and signing secrets are sealed under the same secrets: one figure for both.
				const webhooks = await withWebhookSeals(stores, config, async (ctx) => checkWebhooks(ctx));
				const readable = links.readable + webhooks.readable;
				const unreadable = [...links.unreadable, ...webhooks.unreadable];
				print([
					['readable', readable],
					['unreadable', unreadable.length],
				]);
				for (const storeKey of unreadable) process.stdout.write(`${storeKey}\n`);
				return unreadable.length > 0 ? 1 : 0;
			}
			case 'reseal': {
				const keyring = createKeyring(config.linkSecret ?? Buffer.alloc(0), config.linkSecretPrevious);
				const links = await resealLinks(stores, keyring, progressLine('resealed or checked'));
				const webhooks = await withWebhookSeals(stores, config, async (ctx) => resealWebhooks(ctx));
				print([
					['resealed', links.resealed + webhooks.resealed],
					['already current', links.alreadyCurrent + webhooks.alreadyCurrent],
					['unreadable', links.unreadable + webhooks.unreadable],
				]);
				return 0;
			}
			case 'migrate': {
				const target = await open(command.to, false);
				const result = await migrateRecords(stores, target, progressLine('copied'));
				for (const [label, counts] of [
					['source', result.source],
					['target', result.target],
				] as const) {
					print(figuresOf(counts).map(([name, value]) => [`${label} ${name}`, value]));
				}
				print([['copied', result.copied]]);
				if (!result.matches) process.stderr.write("links: the target's counts differ from the source's\n");
				return result.matches ? 0 : 1;
			}
			default: {
				const unhandled: never = command;
				return unhandled;
			}
		}
	} catch (error) {
		process.stderr.write(`links: ${describeStoreFailure(error)}\n`);
		return 1;
	} finally {
		for (const stores of opened) await stores.close();
	}
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	loadDotEnv();
	process.exitCode = await runLinks(process.argv.slice(2));
}
