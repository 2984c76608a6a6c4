import { checkMessageLimits } from './limits.js';
import { checkAgainstSpec } from './openapi-validator.js';
import { invalidFormBody, refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import { nextSnowflake } from './snowflake.js';
import type { SandboxState } from './state.js';
import type { Json, SandboxMessage } from './records.js';

const DM_CHANNEL = 1;

/** Each sandbox's direct-message channels: one per user, as Discord keeps one DM channel per pair. */
interface DirectMessages {
	channelOfUser: Map<string, string>;
	userOfChannel: Map<string, string>;
	/** Users who do not accept DMs from the bot: posting to them answers 403 50007. */
	closed: Set<string>;
	nonces: Map<string, { id: string; at: number }>;
}

const tables = new WeakMap<SandboxState, DirectMessages>();

export function directMessagesOf(state: SandboxState): DirectMessages {
	let table = tables.get(state);
	if (!table) {
		table = { channelOfUser: new Map(), userOfChannel: new Map(), closed: new Set(), nonces: new Map() };
		tables.set(state, table);
	}
	return table;
}

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function dmChannel(state: SandboxState, channelId: string, userId: string): Json {
	return { id: channelId, type: DM_CHANNEL, last_message_id: null, flags: 0, recipients: [state.users.user(userId)] };
}

/** `POST /users/@me/channels` `{ recipient_id }`: opens the DM channel with a user, or returns the one open. */
function openDirectMessage(request: RestRequest, state: SandboxState): RestReply {
	const recipient = isObject(request.body) ? request.body.recipient_id : undefined;
	if (typeof recipient !== 'string' || !/^\d{17,20}$/.test(recipient)) {
		return invalidFormBody(state, request, [
			{ path: ['recipient_id'], code: 'NUMBER_TYPE_COERCE', message: 'Value is not snowflake.', source: 'limits' },
		]);
	}
	const table = directMessagesOf(state);
	let channelId = table.channelOfUser.get(recipient);
	if (!channelId) {
		channelId = nextSnowflake();
		table.channelOfUser.set(recipient, channelId);
		table.userOfChannel.set(channelId, recipient);
	}
	return { status: 200, body: dmChannel(state, channelId, recipient) };
}

/**
 * `POST /channels/{id}/messages` when the channel is a DM channel the bot opened; undefined for any other channel.
 * A user marked as closed gets Discord's 403 50007, the answer when they share no server with the bot or do not
 * accept DMs from its members. `enforce_nonce` returns the earlier message within the window, as in a server.
 */
export function createDirectMessage(
	request: RestRequest,
	state: SandboxState,
	nonceWindowMs: number,
): RestReply | undefined {
	const channelId = request.params.channel ?? '';
	const table = directMessagesOf(state);
	const userId = table.userOfChannel.get(channelId);
	if (userId === undefined) return undefined;
	const data = isObject(request.body) ? request.body : {};
	const sizes = request.uploads.map((upload) => upload.bytes.length);
	const problems = checkMessageLimits(data, [], sizes, state.settings.attachmentSizeLimit);
	if (state.settings.validateSchema) problems.push(...checkAgainstSpec('MessageCreateRequest', data));
	if (problems.length > 0) return invalidFormBody(state, request, problems);
	if (table.closed.has(userId)) return refuse(state, request, 403, 50007, 'Cannot send messages to this user');
	if (data.enforce_nonce === true && typeof data.nonce === 'string') {
		const seen = table.nonces.get(`${channelId}:${data.nonce}`);
		const earlier = seen && state.clock() - seen.at <= nonceWindowMs ? state.messages.byId.get(seen.id) : undefined;
		if (earlier) return { status: 200, body: state.toApiMessage(earlier) };
	}
	const message = state.messages.create({ channelId, guildId: null, interactionId: null, isEphemeral: false });
	const prepared = state.messages.prepare(message, data, request.uploads, false, []);
	if (prepared.problems.length > 0) {
		state.messages.delete(message);
		return invalidFormBody(state, request, prepared.problems);
	}
	state.messages.commit(message, data, prepared, false);
	if (typeof data.nonce === 'string')
		table.nonces.set(`${channelId}:${data.nonce}`, { id: message.id, at: state.clock() });
	return { status: 200, body: state.toApiMessage(message) };
}

/** What a test sees of a user's DMs from the bot, in order. */
export function directMessagesTo(state: SandboxState, userId: string): SandboxMessage[] {
	const channelId = directMessagesOf(state).channelOfUser.get(userId);
	return channelId === undefined ? [] : (state.messages.byChannel.get(channelId) ?? []);
}

export const dmRoutes: Route[] = [route('POST', '/users/@me/channels', true, openDirectMessage)];
