import { createBotRest } from './bot-rest.js';
import { Routes, type RESTPutAPIApplicationCommandsResult } from 'discord.js';
import type { CommandDefinition } from './command-module.js';
import { DEFAULT_REST_PER_SECOND, openRestBudget, processRestBudget, type RestBudget } from './rest-budget.js';

/**
 * Bulk-overwrites the command set (idempotent: Discord keeps ids of unchanged commands).
 * With `guildId`, only that guild gets them, instantly; without, they are global.
 * With `storeUrl`, the call draws from the REST budget the bot's processes share through that store (as
 * createServices opens it), so registering beside a running bot never adds to its full budget.
 */
export async function registerCommands(options: {
	apiUrl: string;
	token: string;
	applicationId: string;
	guildId: string | null;
	definitions: readonly CommandDefinition[];
	/** STORE_URL: whose shared budget to spend; without it, this process's own. */
	storeUrl?: string;
	/** DISCORD_REST_PER_SECOND. */
	restPerSecond?: number;
	/** BOT_PROCESSES: each one's share while the store does not answer. */
	processes?: number;
	/** Tests sharing one Redis or PostgreSQL keep their counts apart with it. */
	namespacePrefix?: string;
}): Promise<RESTPutAPIApplicationCommandsResult> {
	const perSecond = options.restPerSecond ?? DEFAULT_REST_PER_SECOND;
	const budget = await openSharedBudget(options.storeUrl, {
		perSecond,
		processes: options.processes,
		namespacePrefix: options.namespacePrefix,
	});
	try {
		const rest = createBotRest(
			{ discordApiUrl: options.apiUrl, discordToken: options.token, discordRestPerSecond: perSecond },
			budget,
		);
		const route = options.guildId
			? Routes.applicationGuildCommands(options.applicationId, options.guildId)
			: Routes.applicationCommands(options.applicationId);
		const body = options.definitions.map((definition) => definition.toJSON());
		return (await rest.put(route, { body })) as RESTPutAPIApplicationCommandsResult;
	} finally {
		await budget.close();
	}
}

/**
 * The store's budget; this process's own without a store, or when the store cannot be opened (a store that
 * does not answer costs the call a bounded wait inside the budget, never a hang).
 */
async function openSharedBudget(
	storeUrl: string | undefined,
	options: { perSecond: number; processes?: number; namespacePrefix?: string },
): Promise<RestBudget> {
	if (storeUrl === undefined) return processRestBudget(options.perSecond);
	return openRestBudget(storeUrl, { ...options, onError: () => undefined }).catch(() =>
		processRestBudget(options.perSecond),
	);
}
