import { refuse, route, type Route } from './rest-server.js';

/** Fields of GUILD_CREATE that `GET /guilds/{id}` does not return: they describe the gateway session. */
const GATEWAY_ONLY = [
	'joined_at',
	'large',
	'unavailable',
	'member_count',
	'voice_states',
	'members',
	'channels',
	'threads',
	'presences',
	'stage_instances',
	'guild_scheduled_events',
	'soundboard_sounds',
];

/** `GET /guilds/{id}` with the bot token: the guild object as REST returns it (the bot reads its name). */
export const guildRoutes: Route[] = [
	route('GET', '/guilds/:guild', true, (request, state) => {
		const guild = state.guildById(request.params.guild ?? '');
		if (!guild) return refuse(state, request, 404, 10004, 'Unknown Guild');
		const body = JSON.parse(guild.toGatewayJson()) as Record<string, unknown>;
		for (const field of GATEWAY_ONLY) delete body[field];
		return { status: 200, body };
	}),
];
