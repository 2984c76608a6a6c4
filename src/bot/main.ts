import { ConfigError, loadConfig, loadDotEnv } from '../config.js';
import { startBot } from './start.js';

loadDotEnv();
let config;
try {
	config = loadConfig();
} catch (error) {
	if (!(error instanceof ConfigError)) throw error;
	for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
	process.exit(1);
}

try {
	const bot = await startBot(config);
	const shutdown = (signal: string) => {
		bot.ctx.log.info({ signal }, 'signal received');
		bot.stop().then(
			() => process.exit(0),
			(error: unknown) => {
				bot.ctx.log.error({ err: error }, 'shutdown failed');
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', shutdown);
	process.once('SIGTERM', shutdown);
} catch (error) {
	// Login failures carry no secret: discord.js reports an invalid token by name only.
	console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
