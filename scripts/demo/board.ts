// A board for `npm run demo`, per language: /board add posts the server's embed and chart in a text channel, one
// refresh after a send edits that same message (the chart replaced), /board list shows it live, and /board
// remove leaves the server without boards for the next pass. scripts/demo.ts calls playBoardFlow in each pass.
import type { DiscordSandbox, SandboxMessage } from '../../sandbox/index.js';
import { boardDeps, refreshBoard } from '../../src/boards/board-job.js';
import { boardStoreOf } from '../../src/boards/board-store.js';
import type { BotContext } from '../../src/discord/context.js';

export interface BoardDemo {
	ctx: BotContext;
	sandbox: DiscordSandbox;
	guildId: string;
	channelId: string;
	admin: string;
	manageServer: string;
	run: (options: Parameters<DiscordSandbox['dispatchCommand']>[0]) => Promise<SandboxMessage>;
	record: (title: string, command: string, message: SandboxMessage) => void;
}

export async function playBoardFlow(demo: BoardDemo): Promise<void> {
	const { ctx, guildId, channelId } = demo;
	const asAdmin = { userId: demo.admin, permissions: demo.manageServer, guildId };
	demo.record(
		'Board: add',
		'/board add days:30',
		await demo.run({
			name: 'board',
			subcommand: 'add',
			options: [
				{ name: 'channel', type: 7, value: channelId },
				{ name: 'days', type: 4, value: 30 },
			],
			...asAdmin,
		}),
	);
	const board = await boardStoreOf(ctx).get(guildId, channelId);
	const message = () => demo.sandbox.channelMessages(channelId).find((each) => each.id === board?.messageId);
	const first = message();
	if (!board || !first) throw new Error('the board was not posted');
	demo.record('Board: its first post', 'board (posted by the bot)', first);

	// The next refresh on a snapshot one send later: the edit the board makes when the account moves.
	await refreshBoard(
		boardDeps(
			{
				...ctx,
				stats: {
					fetchSnapshot: async (apiKey) => {
						const result = await ctx.stats.fetchSnapshot(apiKey);
						const sends = { ...result.snapshot.sends, today: (result.snapshot.sends.today ?? 0) + 1 };
						return { ...result, snapshot: { ...result.snapshot, sends } };
					},
				},
			},
			Date.now,
		),
		board,
	);
	const edited = message();
	if (!edited?.editedAt) throw new Error('the board was not edited');
	demo.record('Board: the same message, edited after a send', 'board (edited by the bot)', edited);
	demo.record('Board: list', '/board list', await demo.run({ name: 'board', subcommand: 'list', ...asAdmin }));
	await demo.run({
		name: 'board',
		subcommand: 'remove',
		options: [{ name: 'channel', type: 3, value: channelId }],
		...asAdmin,
	});
}
