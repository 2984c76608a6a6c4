import { ConfigError, loadConfig, loadDotEnv } from '../config.js';
import { startBot, type RunningBot } from './start.js';

loadDotEnv();
let config;
try {
	config = loadConfig();
} catch (error) {
	if (!(error instanceof ConfigError)) throw error;
	for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
	process.exit(1);
}

let bot: RunningBot | null = null;
let stopRequested = false;

function stopAndExit(running: RunningBot): void {
	running.stop().then(
		() => process.exit(0),
		(error: unknown) => {
			running.ctx.log.error({ err: error }, 'shutdown failed');
			process.exit(1);
		},
	);
}

// Installed before start-up, so a signal while logging in still ends in a clean stop and exit 0.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		stopRequested = true;
		if (bot) {
			bot.ctx.log.info({ signal }, 'signal received');
			stopAndExit(bot);
		}
	});
}

try {
	bot = await startBot(config);
	if (stopRequested) stopAndExit(bot);
} catch (error) {
	// Login failures carry no secret: discord.js reports an invalid token by name only.
	console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(stopRequested ? 0 : 1);
}
