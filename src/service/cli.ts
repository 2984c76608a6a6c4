import { parseArgs } from 'node:util';
import { seedDemoAccount } from './demo.js';
import { readEventsFile } from './import-file.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, startStatsServer, STATS_PATH } from './server.js';
import { openStatsStore, type StatsStore } from './store.js';

const DEFAULT_DB = 'data/service.sqlite';
const DEFAULT_PORT = 8787;

const USAGE = `Usage: npm run service -- <command> [options]

Commands:
  serve [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--unreleased] [--rate-limit N]
                                   serve GET ${STATS_PATH} (N requests per minute per key,
                                   default ${DEFAULT_RATE_LIMIT_PER_MINUTE}, 0 = off; --unreleased answers 503)
  account create <name>            create an account and print its API key (shown once)
  account list                     list accounts (never keys)
  account revoke <name>            revoke an account's key
  events import <file.ndjson> --account <name>
                                   import events, one JSON object a line; all or nothing
  demo                             create or replace the "demo" account with 120 days of activity

Every command takes --db FILE (default ${DEFAULT_DB}).`;

/** Wrong command line: the usage is printed and the exit code is 2. */
class UsageError extends Error {
	override name = 'UsageError';
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

function parse(args: string[], options: OptionSpec, positionalCount: number) {
	let parsed;
	try {
		parsed = parseArgs({ args, options: { db: { type: 'string' }, ...options }, allowPositionals: true, strict: true });
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (parsed.positionals.length !== positionalCount) {
		throw new UsageError(`expected ${positionalCount} argument(s), got ${parsed.positionals.length}`);
	}
	const values = parsed.values as Record<string, string | boolean | undefined>;
	return { values, positionals: parsed.positionals, db: (values.db as string | undefined) ?? DEFAULT_DB };
}

function readInteger(value: unknown, flag: string, min: number, max: number, fallback: number): number {
	if (value === undefined) return fallback;
	const number = Number(value);
	if (typeof value !== 'string' || !/^\d+$/.test(value) || number < min || number > max) {
		throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
	}
	return number;
}

function withStore<T>(db: string, use: (store: StatsStore) => T): T {
	const store = openStatsStore(db);
	try {
		return use(store);
	} finally {
		store.close();
	}
}

async function serve(args: string[]): Promise<void> {
	const { values, db } = parse(
		args,
		{
			port: { type: 'string' },
			host: { type: 'string' },
			unreleased: { type: 'boolean' },
			'rate-limit': { type: 'string' },
		},
		0,
	);
	const port = readInteger(values.port, '--port', 0, 65_535, DEFAULT_PORT);
	const rateLimitPerMinute = readInteger(
		values['rate-limit'],
		'--rate-limit',
		0,
		1_000_000,
		DEFAULT_RATE_LIMIT_PER_MINUTE,
	);
	const unreleased = values.unreleased === true;
	const store = openStatsStore(db);
	const server = await startStatsServer({
		store,
		host: (values.host as string | undefined) ?? '127.0.0.1',
		port,
		unreleased,
		rateLimitPerMinute,
		onError: (error) => console.error(`stats service: internal error: ${(error as Error).message}`),
	});
	const limit = rateLimitPerMinute === 0 ? 'no rate limit' : `${rateLimitPerMinute} requests/min per key`;
	console.log(
		`Stats service listening on ${server.url} (GET ${STATS_PATH}; ${limit}${unreleased ? '; unreleased: 503' : ''})`,
	);
	const stop = () => {
		void server.close().finally(() => {
			store.close();
			process.exit(0);
		});
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

function account(args: string[]): void {
	const [action, ...rest] = args;
	if (action === 'create') {
		const { positionals, db } = parse(rest, {}, 1);
		const created = withStore(db, (store) => store.createAccount(positionals[0] ?? ''));
		console.log(`Created account "${created.name}". Its API key is shown only this once:\n${created.apiKey}`);
	} else if (action === 'list') {
		const { db } = parse(rest, {}, 0);
		const accounts = withStore(db, (store) => store.listAccounts());
		if (accounts.length === 0) return console.log('No accounts.');
		console.log(
			['name\tcreated\trevoked', ...accounts.map((a) => `${a.name}\t${a.createdAt}\t${a.revoked ? 'yes' : 'no'}`)].join(
				'\n',
			),
		);
	} else if (action === 'revoke') {
		const { positionals, db } = parse(rest, {}, 1);
		const name = positionals[0] ?? '';
		if (!withStore(db, (store) => store.revokeAccount(name))) {
			throw new Error(`no active account named "${name}" (unknown or already revoked)`);
		}
		console.log(`Revoked the key of "${name}".`);
	} else throw new UsageError(`unknown account command "${action ?? ''}"`);
}

async function events(args: string[]): Promise<void> {
	const [action, ...rest] = args;
	if (action !== 'import') throw new UsageError(`unknown events command "${action ?? ''}"`);
	const { values, positionals, db } = parse(rest, { account: { type: 'string' } }, 1);
	const accountName = values.account;
	if (typeof accountName !== 'string' || accountName === '')
		throw new UsageError('events import needs --account <name>');
	const file = positionals[0] ?? '';
	const parsed = await readEventsFile(file);
	const count = withStore(db, (store) => store.importNormalizedEvents(accountName, parsed));
	console.log(`Imported ${count} events from ${file} into "${accountName}".`);
}

function demo(args: string[]): void {
	const { db } = parse(args, {}, 0);
	const seeded = withStore(db, (store) => seedDemoAccount(store));
	console.log(
		`Demo account "${seeded.name}" holds ${seeded.events} events over 120 days. Its API key:\n${seeded.apiKey}`,
	);
}

async function main(argv: string[]): Promise<void> {
	const [command, ...rest] = argv;
	if (command === 'help' || command === '--help' || command === '-h') return console.log(USAGE);
	if (command === 'serve') return serve(rest);
	if (command === 'account') return account(rest);
	if (command === 'events') return events(rest);
	if (command === 'demo') return demo(rest);
	throw new UsageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
	if (error instanceof UsageError) {
		console.error(`${error.message}\n\n${USAGE}`);
		process.exitCode = 2;
	} else {
		console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
		process.exitCode = 1;
	}
});
