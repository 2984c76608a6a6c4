import { commandDefinitions } from '../../commands/definitions/index.js';
import { ConfigError, loadConfig, loadDotEnv } from '../config.js';
import { registerCommands } from '../discord/register.js';

loadDotEnv();
try {
	const config = loadConfig(process.env, 'register');
	const registered = await registerCommands({
		apiUrl: config.discordApiUrl,
		token: config.discordToken,
		applicationId: config.applicationId ?? '',
		guildId: config.devGuildId,
		definitions: commandDefinitions,
		// The same budget as the bot's processes: registering beside a running bot never adds to its calls.
		storeUrl: config.storeUrl,
		restPerSecond: config.discordRestPerSecond,
		processes: config.botProcesses,
	});
	const where = config.devGuildId ? `to guild ${config.devGuildId}` : 'globally (may take up to an hour to show)';
	console.log(`Registered ${registered.length} commands ${where}: ${registered.map((c) => `/${c.name}`).join(', ')}`);
} catch (error) {
	if (error instanceof ConfigError) {
		for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
	} else {
		console.error(`Registering commands failed: ${error instanceof Error ? error.message : String(error)}`);
	}
	process.exit(1);
}
