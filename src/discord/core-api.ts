import { createRequire } from 'node:module';
import type * as Core from '@discordjs/core/http-only';

/**
 * @discordjs/core's API, from its CommonJS build: that one shares @discordjs/rest and undici with discord.js, where
 * an `import` would load their ES module builds as well, a second copy of each (30–45 ms of start-up, and error
 * classes that fail `instanceof` across the copies). REST and DiscordAPIError come from discord.js for the same
 * reason.
 */
export const API = (createRequire(import.meta.url)('@discordjs/core/http-only') as typeof Core).API;
export type API = Core.API;
