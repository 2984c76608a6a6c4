import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { seedDemoAccount } from './demo.js';
import { importEventsFile, type ImportOutcome } from './import-events.js';
import { describeImport } from './import-report.js';
import {
	DEFAULT_AUTH_FAIL_LIMIT_PER_MINUTE,
	DEFAULT_RATE_LIMIT_PER_MINUTE,
	startStatsServer,
	STATS_PATH,
} from './server.js';
import { openStatsStore, type StatsStore } from './service-store.js';

const DEFAULT_DB = 'data/service.sqlite';
const DEFAULT_PORT = 8787;
// A stop that hangs (a stuck socket, a slow disk) must still end the process before a supervisor's own deadline.
const SHUTDOWN_DEADLINE_MS = 4000;

const USAGE = `Usage: npm run service -- <command> [options]

Commands:
  serve [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--unreleased] [--rate-limit N] [--auth-fail-limit N]
                                   serve GET ${STATS_PATH}; --rate-limit: requests per minute per key
                                   (default ${DEFAULT_RATE_LIMIT_PER_MINUTE}, 0 = off); --auth-fail-limit: failed
                                   authentications per minute per client address before 429 (default
                                   ${DEFAULT_AUTH_FAIL_LIMIT_PER_MINUTE}, 0 = off); --unreleased answers 503
  account create <name>            create an account and print its API key (shown once)
  account list                     list accounts (never keys)
  account revoke <name>            revoke an account's key
  account rotate-key <name>        give the account a new key (shown once); the old one stops working
                                   at once, and a revoked account becomes active again
  events import <file.ndjson> --account <name> [--allow-duplicate]
                                   import events, one JSON object a line; all or nothing; a file
                                   already imported into the account is refused unless --allow-duplicate
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
			'auth-fail-limit': { type: 'string' },
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
	const authFailLimitPerMinute = readInteger(
		values['auth-fail-limit'],
		'--auth-fail-limit',
		0,
		1_000_000,
		DEFAULT_AUTH_FAIL_LIMIT_PER_MINUTE,
	);
	const unreleased = values.unreleased === true;
	const store = openStatsStore(db);
	const server = await startStatsServer({
		store,
		host: (values.host as string | undefined) ?? '127.0.0.1',
		port,
		unreleased,
		rateLimitPerMinute,
		authFailLimitPerMinute,
		onError: (error) => console.error(`stats service: internal error: ${(error as Error).message}`),
	});
	const limit = rateLimitPerMinute === 0 ? 'no rate limit' : `${rateLimitPerMinute} requests/min per key`;
	console.log(
		`Stats service listening on ${server.url} (GET ${STATS_PATH}; ${limit}${unreleased ? '; unreleased: 503' : ''})`,
	);
	let stopping = false;
	const stop = (signal: NodeJS.Signals) => {
		if (stopping) return;
		stopping = true;
		console.log(`Stats service stopping (${signal}).`);
		setTimeout(() => {
			console.error('stats service: connections did not close in time; exiting anyway');
			process.exit(0);
		}, SHUTDOWN_DEADLINE_MS).unref();
		void server
			.close()
			.catch((error: unknown) => console.error(`stats service: closing failed: ${(error as Error).message}`))
			.finally(() => {
				store.close();
				process.exit(0);
			});
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
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
	} else if (action === 'rotate-key') {
		const { positionals, db } = parse(rest, {}, 1);
		const name = positionals[0] ?? '';
		const rotated = withStore(db, (store) => {
			const { revokedAt } = store.accountState(name);
			return { revokedAt, apiKey: store.rotateKey(name) };
		});
		const reactivated =
			rotated.revokedAt === null ? '' : ` The account, revoked at ${rotated.revokedAt}, is active again.`;
		console.log(
			`New key for "${name}"; the old key no longer works.${reactivated} The new key is shown only this once:\n${rotated.apiKey}`,
		);
	} else throw new UsageError(`unknown account command "${action ?? ''}"`);
}

async function events(args: string[]): Promise<void> {
	const [action, ...rest] = args;
	if (action !== 'import') throw new UsageError(`unknown events command "${action ?? ''}"`);
	const { values, positionals, db } = parse(
		rest,
		{ account: { type: 'string' }, 'allow-duplicate': { type: 'boolean' } },
		1,
	);
	const accountName = values.account;
	if (typeof accountName !== 'string' || accountName === '')
		throw new UsageError('events import needs --account <name>');
	const file = positionals[0] ?? '';
	const store = openStatsStore(db);
	// Ctrl-C while the file is read removes the scratch file and exits at once (a read from a FIFO may never
	// return). The final copy is synchronous, so a signal waits for it: the import is whole or absent.
	const interrupt = new AbortController();
	const stop = () => {
		interrupt.abort();
		store.close();
		console.error(`error: the import of ${file} was interrupted; nothing was imported`);
		process.exit(1);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	let outcome: ImportOutcome;
	try {
		outcome = await importEventsFile(store, {
			file,
			accountName,
			allowDuplicate: values['allow-duplicate'] === true,
			stagingDirectory: db === ':memory:' ? tmpdir() : dirname(db),
			signal: interrupt.signal,
			onStaleScratchRemoved: (names) =>
				console.error(
					`note: removed ${names.length} scratch file(s) left by an import that was killed: ${names.join(', ')}`,
				),
		});
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
		store.close();
	}
	reportImport(file, accountName, outcome);
}

function reportImport(file: string, accountName: string, outcome: ImportOutcome): void {
	const report = describeImport(file, accountName, outcome);
	if (report.stdout.length > 0) console.log(report.stdout.join('\n'));
	if (report.stderr.length > 0) console.error(report.stderr.join('\n'));
	process.exitCode = report.exitCode;
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
