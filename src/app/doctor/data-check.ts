import { purgeDueAt, type LeftServerRecord } from '../../privacy/left-server-record.js';
import { storedLeftServers } from '../../privacy/left-server-store.js';
import { errorText, ok, warn, type Check } from './check.js';
import { NoStoreYetError, type DoctorContext } from './context.js';

/** Marks named one by one at most; past it, a count. */
const LISTED_MARKS = 10;
/** A purge this late means no bot runs the job, or Discord keeps not saying whether the bot is out. */
const OVERDUE_MS = 60 * 60_000;

/**
 * Members' privacy page: Discord asks a bot for a privacy-policy address (required for verification), and the
 * members need one page saying what is kept and how to have it deleted. The dashboard serves `/privacy`; with
 * PRIVACY_POLICY_URL that page redirects to the host's own policy, which is then the address to give. Then the
 * servers the bot was removed from, and when each one's records are purged (SERVER_DATA_DAYS after the removal).
 */
export const dataCheck: Check<DoctorContext> = {
	name: 'data',
	deadlineMs: 10_000,
	onDeadline: 'check WEB_PUBLIC_URL and PRIVACY_POLICY_URL, and that the store answers (see store)',
	async run(ctx) {
		const policy = ctx.config.privacyPolicyUrl ?? (ctx.config.webPublicUrl && `${ctx.config.webPublicUrl}/privacy`);
		const page = policy
			? `members' privacy page is ${policy}: enter it as the application's Privacy Policy URL in the Discord Developer Portal`
			: 'members have no privacy page: serve the dashboard (WEB_PORT and WEB_PUBLIC_URL, which serves /privacy) or set PRIVACY_POLICY_URL to your own privacy policy';
		const left = await leftServersLine(ctx);
		const detail = left.line ? `${page}; ${left.line}` : page;
		return policy && !left.warn ? ok(detail) : warn(detail);
	},
};

async function leftServersLine(ctx: DoctorContext): Promise<{ line: string | null; warn: boolean }> {
	let marks: LeftServerRecord[];
	try {
		marks = await storedLeftServers(await ctx.stores());
	} catch (error) {
		if (error instanceof NoStoreYetError) return { line: null, warn: false };
		// The `store` check reports the store's problem; this one still says what it can.
		return { line: `servers marked left not read: ${errorText(error)} (see store)`, warn: false };
	}
	if (marks.length === 0) return { line: 'no server marked left', warn: false };
	const days = ctx.config.serverDataDays;
	const now = Date.now();
	const due = marks.map((mark) => ({ guildId: mark.guildId, at: purgeDueAt(mark, days) })).sort((a, b) => a.at - b.at);
	const overdue = due.filter(({ at }) => at < now - OVERDUE_MS).length;
	const minute = (at: number) => `${new Date(at).toISOString().slice(0, 16)}Z`;
	const listed = due
		.slice(0, LISTED_MARKS)
		.map(({ guildId, at }) => (at <= now ? `${guildId} due since ${minute(at)}` : `${guildId} purged ${minute(at)}`));
	const more = due.length > LISTED_MARKS ? ` and ${due.length - LISTED_MARKS} more` : '';
	const count = `${marks.length} server${marks.length === 1 ? '' : 's'} marked left (SERVER_DATA_DAYS=${days}): ${listed.join(', ')}${more}`;
	if (overdue === 0) return { line: count, warn: false };
	return {
		line: `${count}; ${overdue} overdue: is the bot running? its job purges once GET /guilds/{id} confirms the bot is out`,
		warn: true,
	};
}
