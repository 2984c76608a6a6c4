import { DiscordAPIError, Routes, type APIGuildMember, type APIOverwrite, type APIRole } from 'discord.js';
import { createReportStore } from '../../reports/report-store.js';
import { REPORT_PERMISSIONS } from '../../reports/report-record.js';
import { parseStoredSettings } from '../../settings/settings-record.js';
import { listEntries } from '../../store/list-entries.js';
import { SETTINGS_NAMESPACE } from '../../store/namespaces.js';
import type { Stores } from '../../store/open-stores.js';
import { StorageUnavailableError } from '../../errors.js';
import { createKeyedMutex } from '../../core/claims.js';
import { createWatchStore } from '../../watch/watch-store.js';
import { createBoardStore } from '../../boards/board-store.js';
import { BOARD_PERMISSIONS } from '../../boards/board-record.js';
import { errorText, fail, ok, type Check } from './check.js';
import { discordProblem, isTokenRefused, NoStoreYetError, type DoctorContext } from './context.js';
import { CHANNEL_TYPES } from '../../channel-kinds.js';
import { channelPermissions, missingPermissions, type NeededPermission } from './permissions.js';

/** A channel the bot posts in on its own, and what posting there needs. */
export interface ChannelUse {
	guildId: string;
	channelId: string;
	/** As a host reads it: "report", "audit channel". */
	what: string;
	needs: readonly NeededPermission[];
	/** Needed besides `needs` when the channel turns out to be a voice channel (a stat channel: Connect). */
	voiceNeeds?: readonly NeededPermission[];
	/** The command that moves or removes it. */
	fix: string;
}

/**
 * Where the bot posts by itself, read from the store. Stat channels and alerts (src/watch) add a
 * source here: their channels need View Channel and Manage Channels (renames), alerts the post
 * permissions; each with the command that moves or removes it.
 */
const CHANNEL_SOURCES: ((stores: Stores) => AsyncIterable<ChannelUse>)[] = [
	reportChannels,
	auditChannels,
	statChannels,
	alertChannels,
	boardChannels,
];

// Read-only: the doctor never updates a record, so an in-process lock is all the watch store needs here.
const watchStore = (stores: Stores) => createWatchStore(stores, createKeyedMutex());

async function* statChannels(stores: Stores): AsyncIterable<ChannelUse> {
	for await (const record of watchStore(stores).statChannels.listAll()) {
		yield {
			guildId: record.guildId,
			channelId: record.channelId,
			what: 'stat channel',
			// Renaming needs Manage Channels on a channel the bot can see; a voice channel also Connect, as the bot asks.
			needs: ['viewChannel', 'manageChannels'],
			voiceNeeds: ['connect'],
			fix: 'or remove it: /statchannel remove',
		};
	}
}

async function* alertChannels(stores: Stores): AsyncIterable<ChannelUse> {
	for await (const record of watchStore(stores).alerts.listAll()) {
		yield {
			guildId: record.guildId,
			channelId: record.channelId,
			what: 'alert',
			// An alert is an embed.
			needs: ['viewChannel', 'sendMessages', 'embedLinks'],
			fix: `or move it: /alert remove id:${record.id}, then /alert add in a channel the bot may post in`,
		};
	}
}

async function* boardChannels(stores: Stores): AsyncIterable<ChannelUse> {
	for await (const record of createBoardStore(stores, createKeyedMutex()).listAll()) {
		yield {
			guildId: record.guildId,
			channelId: record.channelId,
			what: 'board',
			// A board is the stats embed with its chart, posted and then edited.
			needs: BOARD_PERMISSIONS,
			fix: 'or move it: /board remove, then /board add in a channel the bot may post in',
		};
	}
}

async function* reportChannels(stores: Stores): AsyncIterable<ChannelUse> {
	for await (const report of createReportStore(stores).listAll()) {
		yield {
			guildId: report.guildId,
			channelId: report.channelId,
			what: 'report',
			needs: REPORT_PERMISSIONS,
			fix: 'or move it: /report remove, then /report add in a channel the bot may post in',
		};
	}
}

async function* auditChannels(stores: Stores): AsyncIterable<ChannelUse> {
	for await (const { key } of listEntries(stores, SETTINGS_NAMESPACE)) {
		const settings = parseStoredSettings(await stores.settings.get(key));
		if (settings.auditChannelId === null) continue;
		yield {
			guildId: key,
			channelId: settings.auditChannelId,
			what: 'audit channel',
			// Audit lines are text only.
			needs: ['viewChannel', 'sendMessages'],
			fix: 'or choose another with /settings set audit-channel',
		};
	}
}

/** Problems past this many are counted, not listed, so the line stays readable. */
const LISTED_PROBLEMS = 5;

interface GuildView {
	ownerId: string | null;
	roles: APIRole[];
	member: APIGuildMember;
}

export const channelsCheck: Check<DoctorContext> = {
	name: 'channels',
	deadlineMs: 30_000,
	onDeadline: 'Discord or the store is slow to answer; run the doctor again',
	async run(ctx) {
		let stores: Stores;
		try {
			stores = await ctx.stores();
		} catch (error) {
			if (error instanceof NoStoreYetError)
				return ok('no store yet, so no report, audit channel, stat channel, alert or board');
			return fail('not checked: the store is unavailable (see store)');
		}
		let uses: ChannelUse[];
		try {
			uses = [];
			for (const source of CHANNEL_SOURCES) for await (const use of source(stores)) uses.push(use);
		} catch (error) {
			if (!(error instanceof StorageUnavailableError)) throw error;
			return fail('not checked: the store is unavailable (see store)');
		}
		if (uses.length === 0) return ok('no report, audit channel, stat channel, alert or board is set');
		let botId: string;
		try {
			botId = (await ctx.botUser()).id;
		} catch (error) {
			return fail(
				isTokenRefused(error)
					? 'not checked: Discord refused the token (see discord-token)'
					: `Discord did not answer (${discordProblem(error) ?? errorText(error)})`,
			);
		}
		const guilds = new Map<string, Promise<GuildView | null>>();
		const guildView = (guildId: string) => {
			let view = guilds.get(guildId);
			if (!view) {
				view = readGuild(ctx, guildId, botId);
				guilds.set(guildId, view);
			}
			return view;
		};
		const problems: string[] = [];
		for (const use of uses) {
			const problem = await checkUse(ctx, use, botId, await guildView(use.guildId));
			if (problem) problems.push(problem);
		}
		const counted = `${uses.length} ${uses.length === 1 ? 'channel' : 'channels'}`;
		if (problems.length === 0) return ok(`${counted} (${kindsOf(uses)}): the bot has what each needs`);
		const listed = problems.slice(0, LISTED_PROBLEMS);
		if (problems.length > LISTED_PROBLEMS) listed.push(`and ${problems.length - LISTED_PROBLEMS} more`);
		return fail(`${problems.length} of ${counted} need attention: ${listed.join('; ')}`);
	},
};

/** The kinds of channel checked, as the ok line names them: `reports, stat channels`. */
function kindsOf(uses: readonly ChannelUse[]): string {
	const kinds = [...new Set(uses.map((use) => use.what))];
	return kinds.map((kind) => (uses.filter((use) => use.what === kind).length === 1 ? kind : `${kind}s`)).join(', ');
}

/** The guild's roles and the bot's member; null when the bot is no longer in the guild. */
async function readGuild(ctx: DoctorContext, guildId: string, botId: string): Promise<GuildView | null> {
	try {
		const [guild, roles, member] = await Promise.all([
			ctx.rest.get(Routes.guild(guildId)) as Promise<{ owner_id?: string }>,
			ctx.rest.get(Routes.guildRoles(guildId)) as Promise<APIRole[]>,
			ctx.rest.get(Routes.guildMember(guildId, botId)) as Promise<APIGuildMember>,
		]);
		return { ownerId: guild.owner_id ?? null, roles, member };
	} catch (error) {
		if (error instanceof DiscordAPIError && (error.status === 404 || error.status === 403)) return null;
		throw error;
	}
}

async function checkUse(
	ctx: DoctorContext,
	use: ChannelUse,
	botId: string,
	guild: GuildView | null,
): Promise<string | null> {
	const where = `${use.what} in channel ${use.channelId} (server ${use.guildId})`;
	if (guild === null)
		return `${where}: the bot is no longer in that server; remove it (${use.fix.replace(/^or /, '')})`;
	let overwrites: APIOverwrite[];
	let needs = use.needs;
	try {
		const channel = (await ctx.rest.get(Routes.channel(use.channelId))) as {
			guild_id?: string;
			type?: number;
			permission_overwrites?: APIOverwrite[];
		};
		if (channel.type === CHANNEL_TYPES.voice && use.voiceNeeds) needs = [...use.needs, ...use.voiceNeeds];
		if (channel.guild_id !== use.guildId)
			return `${where}: the channel is not in that server; ${use.fix.replace(/^or /, '')}`;
		overwrites = channel.permission_overwrites ?? [];
	} catch (error) {
		if (!(error instanceof DiscordAPIError)) throw error;
		if (error.status === 404) return `${where}: the channel was deleted; ${use.fix.replace(/^or /, '')}`;
		if (error.status === 403)
			return `${where}: the bot cannot see the channel (View Channel); allow it for the bot's role in the channel's permissions, ${use.fix}`;
		throw error;
	}
	const permissions = channelPermissions(
		{
			guildId: use.guildId,
			ownerId: guild.ownerId,
			userId: botId,
			roles: guild.roles,
			memberRoles: guild.member.roles,
		},
		overwrites,
	);
	const missing = missingPermissions(permissions, needs);
	if (missing.length === 0) return null;
	return `${where}: the bot lacks ${missing.join(', ')}; allow ${missing.length === 1 ? 'it' : 'them'} for the bot's role in the channel's permissions, ${use.fix}`;
}
