// Starts the local Discord stand-in on its own, for the demo and for pointing a bot at it by hand:
//   tsx scripts/sandbox.ts --guilds 3 --port 8787
// Prints one JSON line ({ apiUrl, applicationId, guildIds, … }) when ready; Ctrl-C stops it.
// The bot token is DISCORD_TOKEN when set, else the fixed SANDBOX_TOKEN below: it is never printed.
import { parseArgs } from 'node:util';
import { startDiscordSandbox } from '../sandbox/index.js';

/** The token the standalone sandbox accepts when DISCORD_TOKEN is unset; valid nowhere but here. */
export const SANDBOX_TOKEN = 'sandbox-bot-token';

const { values } = parseArgs({
	options: {
		guilds: { type: 'string', default: '1' },
		port: { type: 'string', default: '0' },
		heartbeat: { type: 'string', default: '41250' },
		'application-id': { type: 'string' },
	},
});

const sandbox = await startDiscordSandbox({
	guildCount: Number(values.guilds),
	port: Number(values.port),
	heartbeatIntervalMs: Number(values.heartbeat),
	token: process.env.DISCORD_TOKEN ?? SANDBOX_TOKEN,
	preloadValidators: true,
	...(values['application-id'] ? { applicationId: values['application-id'] } : {}),
});

console.log(
	JSON.stringify({
		apiUrl: sandbox.apiUrl,
		gatewayUrl: sandbox.gatewayUrl,
		applicationId: sandbox.applicationId,
		guildIds: sandbox.guildIds.slice(0, 10),
		guildCount: sandbox.guildIds.length,
		tokenSource: process.env.DISCORD_TOKEN ? 'DISCORD_TOKEN' : 'SANDBOX_TOKEN',
	}),
);

const stop = (): void => {
	void sandbox.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
