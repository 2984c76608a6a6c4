import type { CoreContext } from '../stats/core-context.js';
import type { CooldownGate } from './cooldowns.js';

/** Everything a handler may use: the core's services and the per-member cooldowns; built once at start-up and once per test. */
export interface BotContext extends CoreContext {
	cooldowns: CooldownGate;
}
