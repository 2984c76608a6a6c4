// A context for digest tests: the real GuildApi (src/discord/bot-rest.ts) against the Discord stand-in, a real store
// and coordinator (SQLite by default, Redis when asked), a stats endpoint whose figures the test sets, a chart
// renderer that answers with a real PNG, and a clock the test moves.
import type { Actor } from '../../src/core/actor.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import type { CommandInteraction } from '../../src/discord/interaction.js';
import type { DigestJobContext } from '../../src/digests/digest-context.js';
import { digestJobDeps } from '../../src/digests/digest-context.js';
import { DIGEST_CHECK_MS, runDigestCheck, type DigestOutcome } from '../../src/digests/digest-job.js';
import type { DigestContext } from '../../src/digests/digest-actions.js';
import type { LinkedKey, LinkStatus, LinkStore } from '../../src/links/link-model.js';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { TINY_PNG } from '../sandbox/test-bot.js';
import { openWatchContext, SERVER_KEY, type WatchTestContext } from '../watch/support.js';

/** A member with a linked key; OTHER has none. */
export const MEMBER = '300000000000000042';
export const OTHER = '300000000000000043';

export const member = (userId = MEMBER): Actor => ({ userId, canManageServer: false, roleIds: [], origin: 'discord' });

export interface Clock {
	now: () => number;
	set(at: number): void;
}

export interface DigestTestContext {
	ctx: DigestJobContext & DigestContext & WatchTestContext['ctx'];
	/** One check of the digest job at the clock's time, as the runner makes it every five minutes. */
	check(): Promise<DigestOutcome[]>;
	/** Checks every five minutes from `from` (included) to `to` (excluded), as a running bot would. */
	checkEvery5Minutes(from: number, to: number): Promise<{ at: number; outcome: DigestOutcome }[]>;
	close(): Promise<void>;
}

/** 60 days of sends before `now`: day d back has 100 + d sends, so each week differs from the one before. */
function breakdown(now: number): Record<string, number> {
	const days: Record<string, number> = {};
	for (let back = 0; back <= 60; back += 1) {
		days[new Date(now - back * 86_400_000).toISOString().slice(0, 10)] = 100 + back;
	}
	return days;
}

export function memberLinks(): LinkStore {
	const status: LinkStatus = {
		accountName: 'acme',
		linkedAt: 0,
		verified: true,
		linkedBy: MEMBER,
		keyHint: '0000',
		readable: true,
	};
	return {
		getServerLink: async () => null,
		getServerKey: async () => null,
		getUserLink: async (userId: string) => (userId === MEMBER ? status : null),
		getUserKey: async (userId: string): Promise<LinkedKey | null> =>
			userId === MEMBER ? { apiKey: SERVER_KEY, info: status } : null,
	} as unknown as LinkStore;
}

/** A sandbox on the test's clock, shared by the contexts ("processes") a test opens. */
export async function openSandbox(clock: Clock): Promise<DiscordSandbox> {
	return startDiscordSandbox({ guildCount: 1, channelsPerGuild: 1, now: clock.now });
}

export async function openDigestContext(
	sandbox: Pick<DiscordSandbox, 'apiUrl' | 'token'>,
	clock: Clock,
	options: { storeUrl?: string; prefix?: string; webPublicUrl?: string | null } = {},
): Promise<DigestTestContext> {
	const env = await openWatchContext(clock.now, options);
	const renderer: ChartRenderer = { name: 'local', render: async () => TINY_PNG, close: async () => undefined };
	const ctx = {
		...env.ctx,
		config: { ...env.ctx.config, webPublicUrl: options.webPublicUrl ?? null },
		links: memberLinks(),
		renderer,
		guildApi: botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token })),
		now: clock.now,
	};
	env.setFigures((at) => ({
		generatedAt: new Date(at).toISOString(),
		sendsToday: 5,
		sendsAllTime: 9000,
		joinsAllTime: 300 + Math.floor(at / 86_400_000),
		breakdown: breakdown(at),
	}));
	const deps = digestJobDeps(ctx, clock.now);
	const check = async () => runDigestCheck(deps);
	return {
		ctx,
		check,
		checkEvery5Minutes: async (from, to) => {
			const outcomes: { at: number; outcome: DigestOutcome }[] = [];
			for (let at = from; at < to; at += DIGEST_CHECK_MS) {
				clock.set(at);
				for (const outcome of await check()) outcomes.push({ at, outcome });
			}
			return outcomes;
		},
		close: async () => env.close(),
	};
}

export function manualClock(start: number): Clock {
	let now = start;
	return { now: () => now, set: (at) => void (now = at) };
}

/** `YYYY-MM-DD HH:mm` of an instant in a zone, to read when a DM went out in the member's local time. */
export function localTime(timezone: string, at: number): string {
	return new Intl.DateTimeFormat('sv-SE', {
		timeZone: timezone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).format(new Date(at));
}

/** A /digest interaction as both transports hand it to the handler; `texts` are the answers the member saw. */
export function digestCommand(input: {
	subcommand: 'on' | 'off' | 'show';
	userId?: string;
	locale?: string;
	strings?: Record<string, string>;
	hour?: number;
}): CommandInteraction & { texts: string[]; visibilities: string[] } {
	const texts: string[] = [];
	const visibilities: string[] = [];
	let acknowledgement: CommandInteraction['acknowledgement'] = null;
	return {
		kind: 'command',
		id: '1',
		commandName: 'digest',
		subcommand: input.subcommand,
		userId: input.userId ?? MEMBER,
		guildId: '100000000000000001',
		channelId: '200000000000000009',
		locale: input.locale ?? 'en-US',
		guildLocale: 'en-US',
		memberPermissions: 0n,
		memberRoles: [],
		appPermissions: null,
		createdAt: Date.now(),
		get acknowledgement() {
			return acknowledgement;
		},
		options: {
			string: (name) => input.strings?.[name] ?? null,
			integer: (name) => (name === 'hour' ? (input.hour ?? null) : null),
			number: () => null,
			boolean: () => null,
			channel: () => null,
			role: () => null,
		},
		texts,
		visibilities,
		reply: async (payload, visibility) => {
			acknowledgement = 'reply';
			visibilities.push(visibility);
			texts.push(payload.content ?? '');
		},
		defer: async (visibility) => {
			acknowledgement = 'defer';
			visibilities.push(visibility);
		},
		editReply: async (payload) => {
			texts.push(payload.content ?? '');
		},
		followUp: async (payload, visibility) => {
			visibilities.push(visibility);
			texts.push(payload.content ?? '');
		},
		showModal: async () => undefined,
	} as CommandInteraction & { texts: string[]; visibilities: string[] };
}
