// A bot context for board tests: the real GuildApi (src/discord/bot-rest.ts) against the Discord stand-in, a real
// store, a stats endpoint whose figures the test sets, a chart renderer that answers with a real PNG, and a clock
// the test moves.
import type { Actor } from '../../src/core/actor.js';
import type { BoardContext } from '../../src/boards/board-context.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import type { LinkedKey, LinkStatus, LinkStore } from '../../src/links/link-model.js';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { TINY_PNG } from '../sandbox/test-bot.js';
import { ADMIN, openWatchContext, SERVER_KEY, type Figures, type WatchTestContext } from '../watch/support.js';

export const START = Date.parse('2026-11-23T10:00:00Z');

export interface BoardTestContext {
	sandbox: DiscordSandbox;
	/** The bot's services, with the test's clock. */
	ctx: BoardContext & WatchTestContext['ctx'];
	guildId: string;
	/** Text channels of the stand-in's guild: [0] holds the audit channel, the others take boards. */
	channels: string[];
	audit: string;
	clock: { now: () => number; advance(ms: number): void };
	/** Sends today: what the stand-in endpoint answers from now on (the only figure that moves). */
	setSends(today: number): void;
	auditLines(): string[];
	close(): Promise<void>;
}

export const admin = (overrides: Partial<Actor> = {}): Actor => ({
	userId: ADMIN,
	canManageServer: true,
	roleIds: [],
	origin: 'discord',
	...overrides,
});

/** Ten full days before today, so the chart has points to draw. */
function breakdown(now: number): Record<string, number> {
	const days: Record<string, number> = {};
	for (let back = 1; back <= 10; back += 1) {
		days[new Date(now - back * 86_400_000).toISOString().slice(0, 10)] = 100 + back;
	}
	return days;
}

export async function openBoardContext(
	options: { storeUrl?: string; prefix?: string } = {},
): Promise<BoardTestContext> {
	let now = START;
	const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
	const sandbox = await startDiscordSandbox({ guildCount: 1, channelsPerGuild: 6, now: clock.now });
	const env = await openWatchContext(clock.now, options);
	const guild = sandbox.guilds[0]!;
	const [audit, ...channels] = guild.channelIds;
	const status: LinkStatus = {
		accountName: 'acme',
		linkedAt: 0,
		verified: true,
		linkedBy: ADMIN,
		keyHint: '0000',
		readable: true,
	};
	const links = {
		getServerLink: async (guildId: string) => (guildId === guild.id ? status : null),
		getServerKey: async (guildId: string): Promise<LinkedKey | null> =>
			guildId === guild.id ? { apiKey: SERVER_KEY, info: status } : null,
		getUserKey: async () => null,
	} as unknown as LinkStore;
	const renderer: ChartRenderer = { name: 'local', render: async () => TINY_PNG, close: async () => undefined };
	const guildApi = botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }));
	const ctx = {
		...env.ctx,
		config: { ...env.ctx.config, boardMinutes: 15 },
		links,
		renderer,
		guildApi,
		now: clock.now,
	};
	let sends = 0;
	const figures = (at: number): Figures => ({
		generatedAt: new Date(at).toISOString(),
		sendsToday: sends,
		sendsAllTime: 5000 + sends,
		breakdown: breakdown(at),
	});
	env.setFigures(figures);
	await ctx.settings.update(guild.id, { auditChannelId: audit! });
	return {
		sandbox,
		ctx,
		guildId: guild.id,
		channels,
		audit: audit!,
		clock,
		setSends: (today) => {
			sends = today;
		},
		auditLines: () => sandbox.channelMessages(audit!).map((message) => message.content),
		close: async () => {
			await env.close();
			await sandbox.close();
		},
	};
}
