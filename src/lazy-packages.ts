import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type * as Zod from 'zod';

const require = createRequire(import.meta.url);
let loadedZod: typeof Zod | undefined;
let loadedUndici: typeof Undici | undefined;

/**
 * zod, loaded on first use. Loading it is about a quarter of the CPU the bot's own modules cost at start, and
 * nothing validates a stored record or a stats response before READY.
 */
export function zod(): typeof Zod {
	loadedZod ??= require('zod') as typeof Zod;
	return loadedZod;
}

/**
 * undici, loaded on first use: the stats API's and QuickChart's HTTP client. discord.js carries a copy of its own,
 * so ours is 35 ms of start-up that nothing before READY needs.
 */
export function undici(): typeof Undici {
	loadedUndici ??= require('undici') as typeof Undici;
	return loadedUndici;
}

/** Loads them now: called once the bot is ready, so the first member's command does not pay for them either. */
export function preloadLazyPackages(): void {
	zod();
	undici();
}
