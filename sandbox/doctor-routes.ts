// What `npm run doctor` reads and the stand-in lacked: the application's real verify_key, the bot's member
// in a guild, and channels with permission overwrites a test can plant. Stand-in for the fuller guild,
// member and channel routes of branch sandbox-m3; once merged, these routes give way to those.
import { appRoutes } from './app-routes.js';
import { refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import { buildMember, buildTextChannel } from './fixtures.js';
import type { SandboxState } from './state.js';
import type { Json } from './types.js';

/** A permission overwrite as Discord's API carries it: type 0 a role, 1 a member. */
export interface SandboxOverwrite {
	id: string;
	type: 0 | 1;
	allow: string;
	deny: string;
}

interface DoctorExtras {
	/** The application's Ed25519 public key (hex), as the Developer Portal shows it. */
	verifyKey: string;
	overwrites: Map<string, SandboxOverwrite[]>;
}

const extrasByState = new WeakMap<SandboxState, DoctorExtras>();

/** The per-sandbox data these routes serve. */
export function doctorExtras(state: SandboxState): DoctorExtras {
	let extras = extrasByState.get(state);
	if (!extras) {
		extras = { verifyKey: '0'.repeat(64), overwrites: new Map() };
		extrasByState.set(state, extras);
	}
	return extras;
}

function getChannel(request: RestRequest, state: SandboxState): RestReply {
	const channelId = request.params.channel ?? '';
	const guild = state.guildOfChannel(channelId);
	if (!guild) return refuse(state, request, 404, 10003, 'Unknown Channel');
	const position = guild.channelIds.indexOf(channelId);
	return {
		status: 200,
		body: {
			...buildTextChannel(channelId, guild.id, `channel-${position + 1}`, position, null),
			permission_overwrites: doctorExtras(state).overwrites.get(channelId) ?? [],
		},
	};
}

/** Only the bot is a member the doctor asks for; its roles are the fixture's managed bot role. */
function getMember(request: RestRequest, state: SandboxState): RestReply {
	const guild = state.guildById(request.params.guild ?? '');
	if (!guild) return refuse(state, request, 404, 10004, 'Unknown Guild');
	const { botUser } = state.settings;
	if (request.params.user !== botUser.id) return refuse(state, request, 404, 10007, 'Unknown Member');
	const roles = (guild.roles() as Json[]).filter((role) => role.managed === true).map((role) => String(role.id));
	return { status: 200, body: buildMember(botUser, roles, new Date(state.startedAt).toISOString()) };
}

/** app-routes' answer for the application, whose verify_key is a placeholder. */
function applicationRoute(): Route {
	const found = appRoutes.find((item) => item.method === 'GET' && item.pattern.join('/') === 'applications/@me');
	if (!found) throw new Error('app-routes has no GET /applications/@me');
	return found;
}

/** Placed before the other routes: the first match answers. */
export const doctorRoutes: Route[] = [
	route('GET', '/applications/@me', true, async (request, state) => {
		const reply = await applicationRoute().handler(request, state);
		return { ...reply, body: { ...(reply.body as Json), verify_key: doctorExtras(state).verifyKey } };
	}),
	route('GET', '/channels/:channel', true, getChannel),
	route('GET', '/guilds/:guild/members/:user', true, getMember),
];
