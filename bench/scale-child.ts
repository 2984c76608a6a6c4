// Run by bench/scale.ts in a child process (fork, with --expose-gc): the product bot as `npm start`
// builds it (gateway with the given shards, or HTTP mode), or a discord.js client with default
// caches on the same shards. Sends {type:'ready', url} once ready; answers {type:'heap'} with
// heap figures after a full GC; exits on {type:'stop'}.
import { Writable } from 'node:stream';
import { Client, Events, GatewayIntentBits } from 'discord.js';

interface ChildArgs {
	mode: 'bot' | 'plain';
	env: Record<string, string>;
	shards: { ids: number[]; total: number } | null;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;

function heap(): { heapMiB: number; rssMiB: number } {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (!gc) throw new Error('run with --expose-gc');
	for (let i = 0; i < 3; i++) gc();
	const usage = process.memoryUsage();
	return { heapMiB: usage.heapUsed / 2 ** 20, rssMiB: usage.rss / 2 ** 20 };
}

let stop: () => Promise<void>;
let url: string | null = null;
let guilds = 0;
if (args.mode === 'plain') {
	const client = new Client({
		intents: [GatewayIntentBits.Guilds],
		rest: { api: args.env.DISCORD_API_URL },
		shards: args.shards?.ids ?? [0],
		shardCount: args.shards?.total ?? 1,
	});
	await new Promise<void>((resolve) => {
		client.once(Events.ClientReady, () => resolve());
		void client.login(args.env.DISCORD_TOKEN);
	});
	guilds = client.guilds.cache.size;
	stop = () => client.destroy();
} else {
	const { startBot } = await import('../src/app/start-bot.js');
	const { loadConfig } = await import('../src/config.js');
	const bot = await startBot(loadConfig(args.env), {
		logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }),
		shards: args.shards ?? undefined,
	});
	url = bot.interactionsUrl;
	guilds = bot.client?.guilds.cache.size ?? 0;
	stop = () => bot.stop();
}

process.on('message', (message: { type: string }) => {
	if (message.type === 'heap') process.send?.({ type: 'heap', guilds, ...heap() });
	else if (message.type === 'stop') void stop().then(() => process.exit(0));
});
process.send?.({ type: 'ready', url });
