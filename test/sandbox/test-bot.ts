import { once } from 'node:events';
import { Client, GatewayIntentBits } from 'discord.js';
import type { Interaction } from 'discord.js';
import type { DiscordSandbox } from '../../sandbox/index.js';

/** A tiny discord.js bot for the sandbox's own tests (not the product bot). */
export interface TestBot {
	client: Client;
	/** Errors its handlers threw: a Node 20 process dies on an unhandled rejection, so they are kept here. */
	errors: unknown[];
	/** What the bot does with the next interactions; tests swap it. */
	handle: (interaction: Interaction) => Promise<void>;
	stop(): Promise<void>;
}

/** Logs a real discord.js client (intents Guilds only) into the sandbox and waits for `clientReady`. */
export async function startTestBot(sandbox: DiscordSandbox): Promise<TestBot> {
	const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
	const bot: TestBot = {
		client,
		errors: [],
		handle: async () => undefined,
		stop: () => client.destroy(),
	};
	client.on('interactionCreate', (interaction) => {
		bot.handle(interaction).catch((error: unknown) => bot.errors.push(error));
	});
	client.on('error', (error) => bot.errors.push(error));
	const ready = once(client, 'clientReady');
	await client.login(sandbox.token);
	await ready;
	return bot;
}

/** A valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
	'base64',
);

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
