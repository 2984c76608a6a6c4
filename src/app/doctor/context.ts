import { existsSync } from 'node:fs';
import { DiscordAPIError, Routes, type APIApplication, type APIUser, type REST } from 'discord.js';
import type { Config } from '../../config.js';
import { createBotRest } from '../../discord/bot-rest.js';
import { openRestBudget, processRestBudget, type RestBudget } from '../../discord/rest-budget.js';
import { BUDGET_STORE_WAIT_MS } from '../../store/rest-budget-counter.js';
import { openStores, type Stores } from '../../store/open-stores.js';
import { sqliteFileOf, storeSchemeOf } from '../../store-url.js';
import { STORE_DEADLINE_MS, withDeadline } from '../../store/with-deadline.js';

/** What the checks share: the configuration and, opened once on first use, Discord's answers and the store. */
export interface DoctorContext {
	config: Config;
	rest: REST;
	/** `GET /users/@me`: the token's bot user. */
	botUser(): Promise<APIUser>;
	/** `GET /applications/@me`: the token's application. */
	application(): Promise<APIApplication>;
	/** The store STORE_URL names; rejects when it cannot be opened within the store deadline. */
	stores(): Promise<Stores>;
	/** Releases what was opened, within a bounded time. */
	close(): Promise<void>;
}

/** Deadline of one store operation during the doctor's checks. */
export const DOCTOR_STORE_DEADLINE_MS = STORE_DEADLINE_MS;

export interface DoctorOptions {
	/** Prepended to every namespace and to the REST budget's keys, as createServices does (tests share a store). */
	namespacePrefix?: string;
}

export function createDoctorContext(config: Config, options: DoctorOptions = {}): DoctorContext {
	const budget = sharedRestBudget(config, options);
	const rest = createBotRest(config, budget);
	const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
		let promise: Promise<T> | null = null;
		return () => {
			promise ??= load();
			return promise;
		};
	};
	const stores = once(async () => {
		// Opening a SQLite path creates the file: the doctor leaves that to `npm start`.
		if (storeSchemeOf(config.storeUrl) === 'sqlite' && !existsSync(sqliteFileOf(config.storeUrl))) {
			throw new NoStoreYetError(sqliteFileOf(config.storeUrl));
		}
		return withDeadline(
			openStores(config.storeUrl, {
				deadlineMs: DOCTOR_STORE_DEADLINE_MS,
				namespacePrefix: options.namespacePrefix,
			}),
			DOCTOR_STORE_DEADLINE_MS + 1000,
		);
	});
	let storesOpened = false;
	return {
		config,
		rest,
		botUser: once(async () => (await rest.get(Routes.user())) as APIUser),
		application: once(async () => (await rest.get(Routes.currentApplication())) as APIApplication),
		stores: async () => {
			const opened = await stores();
			storesOpened = true;
			return opened;
		},
		close: async () => {
			const closeStores = async () => {
				if (storesOpened) await withDeadline((await stores()).close(), 5000).catch(() => undefined);
			};
			await Promise.all([closeStores(), budget.close()]);
		},
	};
}

/** How long the doctor waits for the store's REST budget to open before its calls count on their own. */
export const DOCTOR_BUDGET_OPEN_MS = BUDGET_STORE_WAIT_MS;

/**
 * The REST budget every process of the store spends (DESIGN, "One REST budget for every process"), opened as
 * createServices opens it, on the first Discord call: the channels check's calls must not come on top of a
 * running bot's. A store that does not open within DOCTOR_BUDGET_OPEN_MS (the `store` check says why), or a
 * STORE_URL that is not valid, leaves the doctor this process's own budget: the budget never holds a check back.
 */
function sharedRestBudget(config: Config, options: DoctorOptions): RestBudget {
	const own = processRestBudget(config.discordRestPerSecond);
	let opening: Promise<RestBudget> | null = null;
	let opened: Promise<RestBudget | null> = Promise.resolve(null);
	const open = async (): Promise<RestBudget> => {
		if (storeSchemeOf(config.storeUrl) === null) return own;
		const shared = openRestBudget(config.storeUrl, {
			perSecond: config.discordRestPerSecond,
			processes: config.botProcesses,
			namespacePrefix: options.namespacePrefix,
			// The store check reports the store's problems; the doctor never logs.
			onError: () => undefined,
		});
		opened = shared.catch(() => null);
		return withDeadline(shared, DOCTOR_BUDGET_OPEN_MS).catch(() => own);
	};
	return {
		perSecond: config.discordRestPerSecond,
		acquire: async (job) => {
			opening ??= open();
			return (await opening).acquire(job);
		},
		// A global 429 answers a call, so the budget it came through is open by then.
		holdUntil: (untilMs) => void opening?.then((budget) => budget.holdUntil(untilMs)),
		// Also when it opened too late to be used: its connection must not hold the process.
		close: async () => {
			const closing = opened.then(async (budget) => {
				if (budget && budget !== own) await budget.close();
			});
			await withDeadline(closing, 5000).catch(() => undefined);
		},
	};
}

/** STORE_URL names a SQLite file that does not exist yet (the bot has not run with it). */
export class NoStoreYetError extends Error {
	override name = 'NoStoreYetError';
	constructor(readonly file: string) {
		super(`the SQLite file ${file} does not exist yet`);
	}
}

/** True when Discord refused the bot token itself (401). */
export function isTokenRefused(error: unknown): boolean {
	if (error instanceof DiscordAPIError) return error.status === 401;
	// After a 401, @discordjs/rest drops the token, and every later call of that client fails with this
	// before it is sent: the budget's pacing makes the checks' calls follow each other, so most see this one.
	return error instanceof Error && /^Expected token to be set for this request/.test(error.message);
}

/** Discord's refusal as a host reads it: status and code, never the request (its headers hold the token). */
export function discordProblem(error: unknown): string | null {
	if (!(error instanceof DiscordAPIError)) return null;
	return `Discord answered ${error.status} (code ${String(error.code)}: ${error.message.slice(0, 120)})`;
}
