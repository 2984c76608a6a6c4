import { ConfigError, loadConfig, loadDotEnv, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { openBotServices } from './services.js';
import { startDashboard } from './start-web.js';

// `npm run web`: the dashboard alone, no gateway connection. Any number of them can share one redis:// or
// postgres:// store behind a load balancer; reports and the sampler claim their work in the store as usual.
loadDotEnv();
let config: Config;
try {
	config = loadConfig(process.env, 'web');
} catch (error) {
	if (!(error instanceof ConfigError)) throw error;
	for (const problem of error.problems) console.error(`Configuration error: ${problem}`);
	process.exit(1);
}

const log = createLogger(config.logLevel).child({ role: 'web' });
let stopRequested = false;
let stop: (() => Promise<void>) | null = null;
const requestStop = (signal: string) => {
	if (stopRequested) return;
	stopRequested = true;
	log.info({ signal }, 'stop requested');
	if (stop)
		stop().then(
			() => process.exit(0),
			() => process.exit(1),
		);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => requestStop(signal));

try {
	const services = await openBotServices(config, log);
	const server = await startDashboard(config, services.ctx, log);
	stop = async () => {
		await server?.close();
		await services.close();
	};
	if (stopRequested) await stop().then(() => process.exit(0));
} catch (error) {
	console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
