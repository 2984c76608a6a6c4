import type { Config } from '../config.js';
import type { CoreContext } from '../core/core-context.js';

/** What the board actions and the refresh job use of the core's services; a CoreContext has all of it. */
export type BoardContext = Pick<
	CoreContext,
	'links' | 'stats' | 'history' | 'renderer' | 'coordinator' | 'stores' | 'settings' | 'guildApi' | 'log' | 'now'
> & { config: Pick<Config, 'storeUrl' | 'historyDays' | 'boardMinutes'> };
