import { RelinkNeededError } from '../errors.js';
import { KeyRejectedError } from '../errors.js';
import type { StatsResult } from '../stats-api/snapshot.js';
import type { LinkStore } from '../links/link-model.js';
import type { StatsSource } from '../stats-api/client.js';
import { UserFacingError } from '../errors.js';
import type { StatsTarget } from './request.js';

/** What fetching a target's figures reads: its link, then the stats endpoint. */
export interface FetchDeps {
	links: Pick<LinkStore, 'getUserKey' | 'getServerLink' | 'getServerKey'>;
	stats: StatsSource;
}

/**
 * The links with one member's own key already being read. A caller that acknowledges first starts the read in the
 * same turn as the acknowledgement, so the store answers while Discord does (read after the settings, it waited
 * for the acknowledgement's round trip first: about 2 ms of the reply). The read is the one fetchStatsFor would
 * make anyway; when the reply stops earlier (a refusal), it goes unused.
 */
export function withUserKeyRead(links: FetchDeps['links'], userId: string): FetchDeps['links'] {
	const reading = links.getUserKey(userId);
	reading.catch(() => undefined); // awaited by fetchStatsFor; only an unused read is left unobserved
	return {
		getUserKey: async (id) => (id === userId ? reading : links.getUserKey(id)),
		getServerLink: async (guildId) => links.getServerLink(guildId),
		getServerKey: async (guildId) => links.getServerKey(guildId),
	};
}

/**
 * Fetches the statistics of the chosen link. `me` uses the member's own link only (never the
 * server's as a silent fallback, so nobody mistakes the server's figures for their own).
 */
export async function fetchStatsFor(ctx: FetchDeps, target: StatsTarget): Promise<StatsResult> {
	const apiKey = target.scope === 'me' ? await userKey(ctx, target) : await serverKey(ctx, target);
	return ctx.stats.fetchSnapshot(apiKey).catch((error: unknown) => {
		if (error instanceof KeyRejectedError && target.scope === 'server') {
			throw new UserFacingError('errors.serverKeyRejected');
		}
		throw error;
	});
}

async function userKey(ctx: FetchDeps, target: StatsTarget): Promise<string> {
	const linked = await ctx.links.getUserKey(target.userId);
	if (linked) return linked.apiKey;
	const serverHasKey = target.guildId !== null && (await ctx.links.getServerLink(target.guildId)) !== null;
	throw new UserFacingError('stats.noUserLink', {}, serverHasKey ? [{ key: 'stats.serverHasKeyHint' }] : []);
}

async function serverKey(ctx: FetchDeps, target: StatsTarget): Promise<string> {
	if (target.guildId === null) throw new UserFacingError('stats.serverScopeGuildOnly');
	const linked = await ctx.links.getServerKey(target.guildId).catch((error: unknown) => {
		if (error instanceof RelinkNeededError) throw new UserFacingError('errors.serverRelinkNeeded');
		throw error;
	});
	if (linked) return linked.apiKey;
	throw new UserFacingError('stats.noServerLink');
}
