import { createDirectMessage } from './dm-routes.js';
import type { GuildFixture } from './guild.js';
import { checkMessageLimits } from './limits.js';
import { checkAgainstSpec } from './openapi-validator.js';
import { Permission } from './permissions.js';
import type { Problem } from './problems.js';
import { invalidFormBody, refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import type { SandboxState } from './state.js';
import type { Json, SandboxMessage } from './records.js';

/** Discord's unwritten limit on name and topic changes: two per channel per ten minutes (PITFALLS 4). */
export const RENAME_WINDOW_MS = 10 * 60_000;
export const RENAMES_PER_WINDOW = 2;
const MAX_CHANNEL_NAME = 100;
const MAX_TOPIC = 1024;
const CATEGORY = 4;

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The headers of PATCH /channels/{id}'s ordinary bucket (5 per 15 s). Discord sends them unchanged on the rename
 * limit's 429, still showing requests left, so a client cannot see that limit coming (discord-api-docs#1900).
 */
function bucketHeaders(state: SandboxState): Record<string, string> {
	return {
		'x-ratelimit-bucket': 'sandbox-patch-channel',
		'x-ratelimit-limit': '5',
		'x-ratelimit-remaining': '4',
		'x-ratelimit-reset': ((state.clock() + 15_000) / 1000).toFixed(3),
		'x-ratelimit-reset-after': '15.000',
	};
}

type Found = { guild: GuildFixture; channelId: string };

/** The guild channel a route names, or Discord's 404 10003 (unknown or deleted). */
function channelOf(state: SandboxState, request: RestRequest): Found | { refused: RestReply } {
	const channelId = request.params.channel ?? '';
	const guild = state.guildOfChannel(channelId);
	return guild ? { guild, channelId } : { refused: refuse(state, request, 404, 10003, 'Unknown Channel') };
}

/**
 * Discord's answer when the bot may not do this in the channel: 403 50001 Missing Access when it cannot see the
 * channel, 403 50013 Missing Permissions when it lacks one of `needed`.
 */
function botLacks(
	state: SandboxState,
	request: RestRequest,
	{ guild, channelId }: Found,
	needed: bigint[],
): RestReply | undefined {
	const granted = guild.permissionsIn(channelId, state.settings.botUser.id);
	if ((granted & Permission.ViewChannel) === 0n) return refuse(state, request, 403, 50001, 'Missing Access');
	if (needed.some((bit) => (granted & bit) === 0n)) return refuse(state, request, 403, 50013, 'Missing Permissions');
	return undefined;
}

function getChannel(request: RestRequest, state: SandboxState): RestReply {
	const found = channelOf(state, request);
	if ('refused' in found) return found.refused;
	const refused = botLacks(state, request, found, []);
	return refused ?? { status: 200, body: found.guild.channel(found.channelId) };
}

/**
 * The OpenAPI description types overwrite `allow` / `deny` as integers; Discord documents strings and discord.js
 * sends strings. A string of digits is read as the number it spells before the schema check.
 */
function overwritesAsNumbers(body: Json): Json {
	if (!Array.isArray(body.permission_overwrites)) return body;
	const asNumber = (value: unknown) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value);
	const overwrites = body.permission_overwrites.map((o: unknown) =>
		isObject(o) ? { ...o, allow: asNumber(o.allow), deny: asNumber(o.deny) } : o,
	);
	return { ...body, permission_overwrites: overwrites };
}

function checkChannelPatch(state: SandboxState, body: Json): Problem[] {
	const problems: Problem[] = [];
	const tooLong = (field: string, min: number, max: number): void => {
		problems.push({
			path: [field],
			code: 'BASE_TYPE_BAD_LENGTH',
			message: `Must be between ${min} and ${max} in length.`,
			source: 'limits',
		});
	};
	if ('name' in body) {
		const length = typeof body.name === 'string' ? [...body.name].length : 0;
		if (length < 1 || length > MAX_CHANNEL_NAME) tooLong('name', 1, MAX_CHANNEL_NAME);
	}
	if (typeof body.topic === 'string' && [...body.topic].length > MAX_TOPIC) tooLong('topic', 0, MAX_TOPIC);
	if (state.settings.validateSchema) {
		problems.push(...checkAgainstSpec('UpdateGuildChannelRequestPartial', overwritesAsNumbers(body)));
	}
	return problems;
}

/** Clock times of this channel's name/topic changes still inside the window. */
function recentNameEdits(state: SandboxState, channelId: string): number[] {
	const now = state.clock();
	const recent = (state.nameEdits.get(channelId) ?? []).filter((at) => now - at < RENAME_WINDOW_MS);
	state.nameEdits.set(channelId, recent);
	return recent;
}

/** The rename limit's 429: `retry_after` is the seconds until the older of the two changes leaves the window. */
function renameLimited(state: SandboxState, request: RestRequest, oldest: number): RestReply {
	const retryAfter = Math.max(0, oldest + RENAME_WINDOW_MS - state.clock()) / 1000;
	const message = 'You are being rate limited.';
	state.rejections.push({ method: request.method, path: request.path, status: 429, code: 0, message, at: state.now() });
	return {
		status: 429,
		headers: {
			...bucketHeaders(state),
			'retry-after': String(Math.ceil(retryAfter)),
			'x-ratelimit-scope': 'user',
		},
		body: { message, retry_after: Number(retryAfter.toFixed(3)), global: false },
	};
}

/**
 * `PATCH /channels/{id}`: applies `name` and (text channels) `topic`, tolerating the other fields without applying
 * them. Needs View Channel and Manage Channels; a third name or topic change within ten minutes gets the 429.
 */
function patchChannel(request: RestRequest, state: SandboxState): RestReply {
	const found = channelOf(state, request);
	if ('refused' in found) return found.refused;
	const body = isObject(request.body) ? request.body : {};
	const problems = checkChannelPatch(state, body);
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	const refused = botLacks(state, request, found, [Permission.ManageChannels]);
	if (refused) return refused;
	const { guild, channelId } = found;
	const name = typeof body.name === 'string' ? body.name : undefined;
	const changesName = name !== undefined || 'topic' in body;
	if (changesName) {
		const recent = recentNameEdits(state, channelId);
		if (recent.length >= RENAMES_PER_WINDOW) return renameLimited(state, request, recent[0]!);
		recent.push(state.clock());
	}
	const isText = guild.channel(channelId)?.type === 0;
	const topic = isText && 'topic' in body ? (typeof body.topic === 'string' ? body.topic : null) : undefined;
	const channel = guild.updateChannel(channelId, { name, topic });
	if (name !== undefined) state.renames.push({ channelId, name, at: state.clock() });
	state.dispatchEvent('CHANNEL_UPDATE', channel, guild.id);
	return { status: 200, headers: bucketHeaders(state), body: channel };
}

/** `channel.send()`: a public message from the bot, outside any interaction. */
function createChannelMessage(request: RestRequest, state: SandboxState): RestReply {
	const direct = createDirectMessage(request, state, NONCE_WINDOW_MS);
	if (direct) return direct;
	const found = channelOf(state, request);
	if ('refused' in found) return found.refused;
	const { guild, channelId } = found;
	if (guild.channel(channelId)?.type === CATEGORY) {
		return refuse(state, request, 400, 50008, 'Cannot send messages in a non-text channel');
	}
	const data = isObject(request.body) ? request.body : {};
	const sizes = request.uploads.map((upload) => upload.bytes.length);
	const problems = checkMessageLimits(data, [], sizes, state.settings.attachmentSizeLimit);
	if (state.settings.validateSchema) problems.push(...checkAgainstSpec('MessageCreateRequest', data));
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	const needed = [Permission.SendMessages];
	if (Array.isArray(data.embeds) && data.embeds.length > 0) needed.push(Permission.EmbedLinks);
	if (request.uploads.length > 0) needed.push(Permission.AttachFiles);
	const refused = botLacks(state, request, found, needed);
	if (refused) return refused;
	const earlier = nonceMessage(state, channelId, data);
	if (earlier) return { status: 200, body: state.toApiMessage(earlier) };
	const message = state.messages.create({ channelId, guildId: guild.id, interactionId: null, isEphemeral: false });
	const prepared = state.messages.prepare(message, data, request.uploads, false, []);
	if (prepared.problems.length > 0) {
		state.messages.delete(message);
		return invalidFormBody(state, request, prepared.problems);
	}
	state.messages.commit(message, data, prepared, false);
	if (typeof data.nonce === 'string')
		nonces(state).set(`${channelId}:${data.nonce}`, { id: message.id, at: state.clock() });
	return { status: 200, body: state.toApiMessage(message) };
}

/** How long Discord answers a repeated `enforce_nonce` post with the earlier message ("a few minutes"). */
export const NONCE_WINDOW_MS = 5 * 60_000;
const nonceTables = new WeakMap<SandboxState, Map<string, { id: string; at: number }>>();
const nonces = (state: SandboxState) => {
	let table = nonceTables.get(state);
	if (!table) nonceTables.set(state, (table = new Map()));
	return table;
};

/** With `enforce_nonce`, a nonce seen in the channel within the window returns that message instead of a new one. */
function nonceMessage(state: SandboxState, channelId: string, data: Json): SandboxMessage | undefined {
	if (data.enforce_nonce !== true || typeof data.nonce !== 'string') return undefined;
	const seen = nonces(state).get(`${channelId}:${data.nonce}`);
	if (!seen || state.clock() - seen.at > NONCE_WINDOW_MS) return undefined;
	return state.messages.byId.get(seen.id);
}

/** The bot's public message a route names in its channel, or Discord's 404 10008 (unknown or deleted). */
function messageOf(state: SandboxState, request: RestRequest, channelId: string): SandboxMessage | RestReply {
	const message = state.messages.byId.get(request.params.message ?? '');
	if (message?.channelId === channelId && !message.isEphemeral) return message;
	return refuse(state, request, 404, 10008, 'Unknown Message');
}

/** `GET /channels/{c}/messages/{m}`: needs View Channel and Read Message History. */
function getChannelMessage(request: RestRequest, state: SandboxState): RestReply {
	const found = channelOf(state, request);
	if ('refused' in found) return found.refused;
	const refused = botLacks(state, request, found, [Permission.ReadMessageHistory]);
	if (refused) return refused;
	const message = messageOf(state, request, found.channelId);
	return 'status' in message ? message : { status: 200, body: state.toApiMessage(message) };
}

/**
 * `PATCH /channels/{c}/messages/{m}` of the bot's own message, with Discord's attachment rules (MessageStore.prepare):
 * without `attachments` the old files stay and new ones are added; with it, only the listed ones stay.
 */
function editChannelMessage(request: RestRequest, state: SandboxState): RestReply {
	const found = channelOf(state, request);
	if ('refused' in found) return found.refused;
	const data = isObject(request.body) ? request.body : {};
	const sizes = request.uploads.map((upload) => upload.bytes.length);
	const problems = checkMessageLimits(data, [], sizes, state.settings.attachmentSizeLimit);
	if (state.settings.validateSchema) problems.push(...checkAgainstSpec('MessageEditRequestPartial', data));
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	const refused = botLacks(state, request, found, request.uploads.length > 0 ? [Permission.AttachFiles] : []);
	if (refused) return refused;
	const message = messageOf(state, request, found.channelId);
	if ('status' in message) return message;
	const prepared = state.messages.prepare(message, data, request.uploads, true, []);
	if (prepared.problems.length > 0) return invalidFormBody(state, request, prepared.problems);
	state.messages.commit(message, data, prepared, true);
	return { status: 200, body: state.toApiMessage(message) };
}

export const channelRoutes: Route[] = [
	route('GET', '/channels/:channel', true, getChannel),
	route('PATCH', '/channels/:channel', true, patchChannel),
	route('POST', '/channels/:channel/messages', true, createChannelMessage),
	route('GET', '/channels/:channel/messages/:message', true, getChannelMessage),
	route('PATCH', '/channels/:channel/messages/:message', true, editChannelMessage),
];
