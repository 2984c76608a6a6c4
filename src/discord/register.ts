import { createBotRest } from './bot-rest.js';
import { Routes, type RESTPutAPIApplicationCommandsResult } from 'discord.js';
import type { CommandDefinition } from './command-module.js';

/**
 * Bulk-overwrites the command set (idempotent: Discord keeps ids of unchanged commands).
 * With `guildId`, only that guild gets them, instantly; without, they are global.
 */
export async function registerCommands(options: {
	apiUrl: string;
	token: string;
	applicationId: string;
	guildId: string | null;
	definitions: readonly CommandDefinition[];
}): Promise<RESTPutAPIApplicationCommandsResult> {
	const rest = createBotRest({ discordApiUrl: options.apiUrl, discordToken: options.token });
	const route = options.guildId
		? Routes.applicationGuildCommands(options.applicationId, options.guildId)
		: Routes.applicationCommands(options.applicationId);
	const body = options.definitions.map((definition) => definition.toJSON());
	return (await rest.put(route, { body })) as RESTPutAPIApplicationCommandsResult;
}
