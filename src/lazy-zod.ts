import { createRequire } from 'node:module';
import type * as Zod from 'zod';

const require = createRequire(import.meta.url);
let loaded: typeof Zod | undefined;

/**
 * zod, loaded on first use. Loading it is about a quarter of the CPU the bot's own modules cost at start, and
 * nothing validates a stored record or a stats response before READY; start-up loads it once READY is reached
 * (preloadZod), so the first member's command does not pay for it either.
 */
export function zod(): typeof Zod {
	loaded ??= require('zod') as typeof Zod;
	return loaded;
}

/** Loads zod now: called once the bot is ready. */
export function preloadZod(): void {
	zod();
}
