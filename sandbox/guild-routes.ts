import type { GuildFixture } from './guild.js';
import { refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import type { SandboxState } from './state.js';

/**
 * The guild a route names, or Discord's 404 10004 when the bot is not in it (403 50001 for a guild the bot was
 * removed from with that answer).
 */
export function guildOf(state: SandboxState, request: RestRequest): GuildFixture | RestReply {
	const guildId = request.params.guild ?? '';
	const guild = state.guildById(guildId);
	if (guild) return guild;
	if (state.removedGuilds.get(guildId) === 403) return refuse(state, request, 403, 50001, 'Missing Access');
	return refuse(state, request, 404, 10004, 'Unknown Guild');
}

/** Runs `answer` on the named guild, or answers 404 10004. */
function withGuild(answer: (guild: GuildFixture, request: RestRequest, state: SandboxState) => RestReply) {
	return (request: RestRequest, state: SandboxState): RestReply => {
		const guild = guildOf(state, request);
		return 'status' in guild ? guild : answer(guild, request, state);
	};
}

export const guildRoutes: Route[] = [
	route(
		'GET',
		'/guilds/:guild',
		true,
		withGuild((guild, request) => ({
			status: 200,
			body: guild.toRestJson(request.query.get('with_counts') === 'true'),
		})),
	),
	route(
		'GET',
		'/guilds/:guild/roles',
		true,
		withGuild((guild) => ({ status: 200, body: guild.roles() })),
	),
	route(
		'GET',
		'/guilds/:guild/channels',
		true,
		withGuild((guild) => ({ status: 200, body: guild.channels() })),
	),
	route(
		'GET',
		'/guilds/:guild/members/:user',
		true,
		withGuild((guild, request, state) => {
			const member = guild.member(request.params.user ?? '');
			return member ? { status: 200, body: member } : refuse(state, request, 404, 10007, 'Unknown Member');
		}),
	),
];
