// The weekly digest for `npm run demo`: per language, the member turns it on with /digest on, the bot sends the
// direct message exactly as the digest job builds and sends it (POST /users/@me/channels, then the post), and
// /digest show says when the next one comes. scripts/demo.ts calls playDigestFlow inside its per-language pass,
// while the member is linked.
import type { DiscordSandbox, SandboxMessage } from '../../sandbox/index.js';
import type { BotContext } from '../../src/discord/context.js';
import { buildDigestMessage } from '../../src/digests/build-digest.js';
import { digestNonce } from '../../src/digests/digest-job.js';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import type { Locale } from '../../src/i18n/index.js';

export interface DigestDemo {
	ctx: BotContext;
	sandbox: DiscordSandbox;
	/** A member with their own key linked. */
	member: string;
	locale: Locale;
	/** Dispatches a command in the pass's language and returns the bot's final message. */
	run: (options: Parameters<DiscordSandbox['dispatchCommand']>[0]) => Promise<SandboxMessage>;
	/** Adds one step to the pass's page. */
	record: (title: string, command: string, message: SandboxMessage) => void;
}

/** A zone people of that language live in, so each page shows a local hour other than UTC. */
const ZONES: Record<Locale, string> = {
	'en-US': 'America/New_York',
	de: 'Europe/Berlin',
	fr: 'Europe/Paris',
	'es-ES': 'Europe/Madrid',
	'pt-BR': 'America/Sao_Paulo',
	ru: 'Europe/Moscow',
	tr: 'Europe/Istanbul',
	ja: 'Asia/Tokyo',
};

export async function playDigestFlow(demo: DigestDemo): Promise<void> {
	const { ctx, sandbox, member } = demo;
	const timezone = ZONES[demo.locale];
	demo.record(
		'Weekly digest: on',
		`/digest on weekday:mon hour:9 timezone:${timezone}`,
		await demo.run({
			name: 'digest',
			subcommand: 'on',
			userId: member,
			options: [
				{ name: 'weekday', type: 3, value: 'mon' },
				{ name: 'hour', type: 4, value: 9 },
				{ name: 'timezone', type: 3, value: timezone },
			],
		}),
	);
	const record = await digestStoreOf(ctx).get(member);
	if (!record) throw new Error('/digest on stored no digest');
	const message = await buildDigestMessage(ctx, record, Date.now());
	await ctx.guildApi.sendDirectMessage(member, message, { nonce: digestNonce(member, `demo-${Date.now()}`) });
	const sent = sandbox.directMessages(member).at(-1);
	if (!sent) throw new Error('the digest DM did not arrive');
	demo.record('Weekly digest: the direct message', 'weekly digest (DM)', sent);
	demo.record(
		'Weekly digest: show',
		'/digest show',
		await demo.run({ name: 'digest', subcommand: 'show', userId: member }),
	);
}
