import type { CommandModule } from '../src/bot/command-module.js';
import * as help from './help.js';
import * as link from './link.js';
import * as serverKey from './server-key.js';
import * as stats from './stats.js';
import * as unlink from './unlink.js';

/** Every slash command; the bot and `npm run register` both read this list. */
export const commandModules: readonly CommandModule[] = [stats, link, unlink, serverKey, help];
