// Stat channels and alerts for `npm run demo`: per language, /statchannel add renames the server's voice channel
// (the reply and /statchannel list show its new name), and an alert's firing is posted in the text channel
// exactly as the alert watcher posts it. scripts/demo.ts calls playWatchFlows inside its per-language pass.
import type { DiscordSandbox, SandboxMessage } from '../../sandbox/index.js';
import type { BotContext } from '../../src/discord/context.js';
import { alertDeps, watchStoreOf } from '../../src/watch/watch-context.js';
import { checkServerAlerts } from '../../src/watch/alert-job.js';

export interface WatchDemo {
	ctx: BotContext;
	sandbox: DiscordSandbox;
	guildId: string;
	/**
	 * Voice channels or categories to turn into stat channels, one per pass in turn: Discord (and the stand-in)
	 * allow two renames of a channel per 10 minutes, so with fewer than half as many channels as passes a late
	 * pass shows the bot waiting for the limit ("its name follows within 10 minutes") instead of a new name.
	 */
	statChannelIds: readonly string[];
	/** A text channel for the alert. */
	alertChannelId: string;
	/** A member with Manage Server, and that permission as Discord sends it. */
	admin: string;
	manageServer: string;
	/** Dispatches a command in the pass's language and returns the bot's final message. */
	run: (options: Parameters<DiscordSandbox['dispatchCommand']>[0]) => Promise<SandboxMessage>;
	/** Adds one step to the pass's page. */
	record: (title: string, command: string, message: SandboxMessage) => void;
}

/**
 * Plays the stat channel and alert flows once (pass `index` of the demo), leaving the server without stat
 * channels or alerts, so the next language's pass starts the same.
 */
export async function playWatchFlows(demo: WatchDemo, index: number): Promise<void> {
	const { ctx, guildId, admin, manageServer } = demo;
	const watch = watchStoreOf(ctx);
	const channelId = demo.statChannelIds[index % demo.statChannelIds.length]!;
	const asAdmin = { userId: admin, permissions: manageServer, guildId };
	const figure = index % 2 === 0 ? 'sends-today' : 'joins-all';

	demo.record(
		'Stat channel: add',
		`/statchannel add figure:${figure}`,
		await demo.run({
			name: 'statchannel',
			subcommand: 'add',
			options: [
				{ name: 'channel', type: 7, value: channelId },
				{ name: 'figure', type: 3, value: figure },
			],
			...asAdmin,
		}),
	);
	demo.record(
		'Stat channel: list (the name it now shows)',
		'/statchannel list',
		await demo.run({ name: 'statchannel', subcommand: 'list', ...asAdmin }),
	);

	// A milestone just above the account's all-time sends, then the watcher's evaluation on a snapshot one send
	// later: the post is the one the alert would make when the account gets there.
	const { snapshot } = await ctx.stats.fetchSnapshot(await serverKey(ctx, guildId));
	const threshold = (snapshot.sends.allTime ?? 0) + 1;
	const added = await demo.run({
		name: 'alert',
		subcommand: 'add',
		options: [
			{ name: 'kind', type: 3, value: 'sends-milestone' },
			{ name: 'channel', type: 7, value: demo.alertChannelId },
			{ name: 'threshold', type: 10, value: threshold },
		],
		...asAdmin,
	});
	demo.record('Alert: add', `/alert add kind:sends-milestone threshold:${threshold}`, added);
	const deps = alertDeps(ctx, Date.now);
	const before = demo.sandbox.channelMessages(demo.alertChannelId).length;
	await checkServerAlerts(
		{
			...deps,
			fetchServerSnapshot: async (id) => {
				const result = await deps.fetchServerSnapshot(id);
				const sends = { ...result.snapshot.sends, allTime: threshold };
				return { ...result, snapshot: { ...result.snapshot, sends } };
			},
		},
		guildId,
	);
	const post = demo.sandbox.channelMessages(demo.alertChannelId).slice(before).at(-1);
	if (!post) throw new Error('the alert did not post');
	demo.record('Alert: the post when the milestone is reached', 'alert (posted by the bot)', post);
	demo.record('Alert: list', '/alert list', await demo.run({ name: 'alert', subcommand: 'list', ...asAdmin }));

	for (const alert of await watch.alerts.listServer(guildId)) {
		await demo.run({
			name: 'alert',
			subcommand: 'remove',
			options: [{ name: 'id', type: 3, value: alert.id }],
			...asAdmin,
		});
	}
	await demo.run({
		name: 'statchannel',
		subcommand: 'remove',
		options: [{ name: 'channel', type: 3, value: channelId }],
		...asAdmin,
	});
}

async function serverKey(ctx: BotContext, guildId: string): Promise<string> {
	const linked = await ctx.links.getServerKey(guildId);
	if (!linked) throw new Error('the demo server has no key linked');
	return linked.apiKey;
}
