import type { CoreContext } from '../core/core-context.js';

/** Everything a handler may use: the core's services; built once at start-up and once per test. */
export type BotContext = CoreContext;
