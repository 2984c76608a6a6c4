import { checkCommandLimits } from './limits.js';
import { checkAgainstSpec } from './openapi-validator.js';
import type { Problem } from './problems.js';
import { invalidFormBody, refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import { nextSnowflake } from './snowflake.js';
import type { SandboxState, StoredCommand } from './state.js';
import type { Json } from './types.js';

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function application(state: SandboxState): Json {
	const { botUser, applicationId } = state.settings;
	return {
		id: applicationId,
		name: botUser.username,
		icon: null,
		description: 'Discord sandbox application',
		summary: '',
		type: null,
		bot: botUser,
		bot_public: true,
		bot_require_code_grant: false,
		verify_key: '0'.repeat(64),
		flags: 0,
		owner: { ...botUser, bot: false, id: '1', username: 'sandbox-owner' },
		team: null,
		approximate_guild_count: state.guilds.length,
		integration_types_config: { '0': {} },
		install_params: { scopes: ['bot', 'applications.commands'], permissions: '0' },
	};
}

function commandKey(request: RestRequest): string {
	return request.params.guild ?? 'global';
}

/** Discord's answer shape for a registered command; `id` is kept when a command of that name existed. */
function storeCommand(
	state: SandboxState,
	request: RestRequest,
	input: Json,
	previous: StoredCommand[],
): StoredCommand {
	const name = String(input.name);
	const existing = previous.find((command) => command.name === name);
	const command: StoredCommand = {
		type: 1,
		description: '',
		options: [],
		default_member_permissions: null,
		nsfw: false,
		contexts: null,
		integration_types: [0],
		name_localizations: null,
		description_localizations: null,
		...input,
		id: existing?.id ?? nextSnowflake(),
		name,
		application_id: state.settings.applicationId,
		version: nextSnowflake(),
	};
	if (request.params.guild) command.guild_id = request.params.guild;
	return command;
}

function checkCommands(state: SandboxState, request: RestRequest, commands: Json[], asArray: boolean): Problem[] {
	const problems = commands.flatMap((command, i) => checkCommandLimits(command, asArray ? [String(i)] : []));
	if (!state.settings.validateSchema) return problems;
	const body = asArray ? commands.map(permissionsAsNumber) : permissionsAsNumber(request.body as Json);
	if (asArray) problems.push(...checkAgainstSpec('ApplicationCommandUpdateRequest', body, [], true));
	else problems.push(...checkAgainstSpec('ApplicationCommandCreateRequest', body));
	return problems;
}

/**
 * Discord documents `default_member_permissions` as a string (a 64-bit bit set does not fit a JSON
 * number) and discord.js sends one; the OpenAPI description types it as an integer. A string of
 * digits is read as the number it spells before the schema check; anything else still fails.
 */
function permissionsAsNumber(command: Json): Json {
	const value = command.default_member_permissions;
	if (typeof value !== 'string' || !/^\d{1,17}$/.test(value)) return command;
	return { ...command, default_member_permissions: Number(value) };
}

function wrongApplication(state: SandboxState, request: RestRequest): RestReply | undefined {
	return request.params.app === state.settings.applicationId
		? undefined
		: refuse(state, request, 403, 50001, 'Missing Access');
}

function putCommands(request: RestRequest, state: SandboxState): RestReply {
	const wrong = wrongApplication(state, request);
	if (wrong) return wrong;
	const input = Array.isArray(request.body) ? (request.body as unknown[]).filter(isObject) : [];
	const problems = checkCommands(state, request, input, true);
	if (!Array.isArray(request.body))
		problems.push({ path: [], code: 'BASE_TYPE_ARRAY', message: 'Must be an array', source: 'rules' });
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	const previous = state.commands.get(commandKey(request)) ?? [];
	const next = input.map((command) => storeCommand(state, request, command, previous));
	state.commands.set(commandKey(request), next);
	return { status: 200, body: next };
}

function postCommand(request: RestRequest, state: SandboxState): RestReply {
	const wrong = wrongApplication(state, request);
	if (wrong) return wrong;
	const input = isObject(request.body) ? request.body : {};
	const problems = checkCommands(state, request, [input], false);
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	const previous = state.commands.get(commandKey(request)) ?? [];
	const command = storeCommand(state, request, input, previous);
	const existed = previous.some((item) => item.name === command.name);
	state.commands.set(commandKey(request), [...previous.filter((item) => item.name !== command.name), command]);
	return { status: existed ? 200 : 201, body: command };
}

function findCommand(request: RestRequest, state: SandboxState) {
	const list = state.commands.get(commandKey(request)) ?? [];
	return { list, command: list.find((item) => item.id === request.params.command) };
}

function patchCommand(request: RestRequest, state: SandboxState): RestReply {
	const { list, command } = findCommand(request, state);
	if (!command) return refuse(state, request, 404, 10063, 'Unknown application command');
	const input = isObject(request.body) ? request.body : {};
	const merged = { ...command, ...input, id: command.id, name: String(input.name ?? command.name) };
	const problems = checkCommandLimits(merged, []);
	if (state.settings.validateSchema) {
		problems.push(...checkAgainstSpec('ApplicationCommandPatchRequestPartial', permissionsAsNumber(input)));
	}
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	state.commands.set(
		commandKey(request),
		list.map((item) => (item === command ? merged : item)),
	);
	return { status: 200, body: merged };
}

function deleteCommand(request: RestRequest, state: SandboxState): RestReply {
	const { list, command } = findCommand(request, state);
	if (!command) return refuse(state, request, 404, 10063, 'Unknown application command');
	state.commands.set(
		commandKey(request),
		list.filter((item) => item !== command),
	);
	return { status: 204 };
}

export const appRoutes: Route[] = [
	route('GET', '/gateway', false, (_request, state) => ({ status: 200, body: { url: state.gatewayUrl } })),
	route('GET', '/gateway/bot', true, (_request, state) => ({
		status: 200,
		body: {
			url: state.gatewayUrl,
			shards: state.settings.recommendedShards,
			session_start_limit: {
				total: 1000,
				remaining: 1000,
				reset_after: 0,
				max_concurrency: state.settings.maxConcurrency,
			},
		},
	})),
	route('GET', '/applications/@me', true, (_request, state) => ({ status: 200, body: application(state) })),
	route('GET', '/oauth2/applications/@me', true, (_request, state) => ({ status: 200, body: application(state) })),
	route('GET', '/applications/:app/commands', true, (_request, state) => ({
		status: 200,
		body: state.commands.get('global') ?? [],
	})),
	route('PUT', '/applications/:app/commands', true, putCommands),
	route('POST', '/applications/:app/commands', true, postCommand),
	route('GET', '/applications/:app/commands/:command', true, (request, state) => {
		const { command } = findCommand(request, state);
		return command ? { status: 200, body: command } : refuse(state, request, 404, 10063, 'Unknown application command');
	}),
	route('PATCH', '/applications/:app/commands/:command', true, patchCommand),
	route('DELETE', '/applications/:app/commands/:command', true, deleteCommand),
	route('GET', '/applications/:app/guilds/:guild/commands', true, (request, state) => ({
		status: 200,
		body: state.commands.get(commandKey(request)) ?? [],
	})),
	route('PUT', '/applications/:app/guilds/:guild/commands', true, putCommands),
	route('POST', '/applications/:app/guilds/:guild/commands', true, postCommand),
	route('PATCH', '/applications/:app/guilds/:guild/commands/:command', true, patchCommand),
	route('DELETE', '/applications/:app/guilds/:guild/commands/:command', true, deleteCommand),
];
