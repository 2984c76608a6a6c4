import type { Config } from '../config.js';
import type { Coordinator } from '../core/claims.js';
import type { HistoryStore } from '../history/history-store.js';
import type { LinkStore } from '../links/link-model.js';
import type { Stores } from '../store/open-stores.js';

/** What show, export, forget, purge and restore need: the bot's CoreContext has it, and so has the host's CLI. */
export interface PrivacyContext {
	stores: Stores;
	coordinator: Pick<Coordinator, 'claim' | 'keys' | 'remove'>;
	config: Pick<Config, 'linkSecret' | 'storeUrl'>;
	/** The bot's history store, so that what it keeps in memory goes too; the CLI deletes through the store. */
	history?: Pick<HistoryStore, 'remove'>;
	/** The bot's link store, so that what it keeps in memory of a forgotten member's links goes too. */
	links?: Pick<LinkStore, 'removeUserLink' | 'dropKept'>;
	now?: () => number;
}
