import type { InteractionHandle } from './interaction-handle.js';
import { checkChoiceLimits, checkMessageLimits, checkModalLimits } from './limits.js';
import { checkAgainstSpec } from './openapi-validator.js';
import type { RequestSchemaName } from './openapi-validator.js';
import type { Problem } from './problems.js';
import { invalidFormBody, refuse, route } from './rest-server.js';
import type { RestReply, RestRequest, Route } from './rest-server.js';
import type { SandboxState } from './state.js';
import type { Json, SandboxMessage, SandboxResponse } from './records.js';

const EPHEMERAL = 64;
const CALLBACK_SCHEMAS: Record<number, RequestSchemaName> = {
	1: 'PongInteractionCallbackRequest',
	4: 'CreateMessageInteractionCallbackRequest',
	5: 'CreateMessageInteractionCallbackRequest',
	6: 'UpdateMessageInteractionCallbackRequest',
	7: 'UpdateMessageInteractionCallbackRequest',
	8: 'ApplicationCommandAutocompleteCallbackRequest',
	9: 'ModalInteractionCallbackRequest',
};
// Which callback types Discord accepts per interaction type (2 command, 3 component, 4 autocomplete, 5 modal submit).
const ALLOWED_CALLBACKS: Record<number, number[]> = { 2: [4, 5, 9], 3: [4, 5, 6, 7, 9], 4: [8], 5: [4, 5, 6, 7] };

const isObject = (value: unknown): value is Json =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function validate(
	state: SandboxState,
	request: RestRequest,
	schema: RequestSchemaName,
	checkLimits: () => Problem[],
): Problem[] {
	const problems = checkLimits();
	if (state.settings.validateSchema) problems.push(...checkAgainstSpec(schema, request.body));
	return problems;
}

function respond(
	state: SandboxState,
	handle: InteractionHandle,
	request: RestRequest,
	reply: RestReply,
	extra: Partial<SandboxResponse>,
) {
	const body = isObject(request.body) ? request.body : {};
	const data = extra.kind === 'callback' ? (isObject(body.data) ? body.data : {}) : body;
	const errorCode = reply.status >= 400 && isObject(reply.body) ? Number(reply.body.code) : undefined;
	handle.record({
		kind: 'callback',
		data,
		flags: typeof data.flags === 'number' ? data.flags : 0,
		files: request.uploads.map(({ name, contentType, bytes }) => ({ name, contentType, bytes })),
		at: performance.now() - handle.dispatchedAt,
		status: reply.status,
		...(errorCode === undefined ? {} : { errorCode }),
		...extra,
	});
	return reply;
}

/** Applies a message body to `message`, or answers 50035 without changing anything. */
function applyMessage(
	state: SandboxState,
	request: RestRequest,
	message: SandboxMessage,
	data: Json,
	isEdit: boolean,
	path: string[],
) {
	const prepared = state.messages.prepare(message, data, request.uploads, isEdit, path);
	if (prepared.problems.length > 0) return invalidFormBody(state, request, prepared.problems);
	state.messages.commit(message, data, prepared, isEdit);
	return undefined;
}

function callback(request: RestRequest, state: SandboxState): RestReply {
	const handle = state.interactions.get(request.params.token ?? '');
	if (!handle || handle.id !== request.params.id) return refuse(state, request, 404, 10062, 'Unknown interaction');
	return acceptCallback(state, handle, request, 'rest');
}

/**
 * Discord's rules for an interaction's first response, wherever it came from (POST /callback, or the body of the
 * HTTP response in HTTP mode): in time, only once, a type valid for the interaction, a body Discord accepts.
 */
export function acceptCallback(
	state: SandboxState,
	handle: InteractionHandle,
	request: RestRequest,
	via: 'rest' | 'http',
): RestReply {
	const body = isObject(request.body) ? request.body : {};
	const type = typeof body.type === 'number' ? body.type : -1;
	const data = isObject(body.data) ? body.data : {};
	const answer = (reply: RestReply, messageId?: string) =>
		respond(state, handle, request, reply, { kind: 'callback', type, via, ...(messageId ? { messageId } : {}) });
	if (handle.callbackType !== undefined) {
		return answer(refuse(state, request, 400, 40060, 'Interaction has already been acknowledged.'));
	}
	if (performance.now() - handle.dispatchedAt > state.settings.interactionTimeoutMs) {
		return answer(refuse(state, request, 404, 10062, 'Unknown interaction'));
	}
	const schema = CALLBACK_SCHEMAS[type];
	if (!schema || !ALLOWED_CALLBACKS[handle.type]?.includes(type)) {
		const problem: Problem = {
			path: ['type'],
			code: 'INTERACTION_CALLBACK_TYPE_INVALID',
			message: `Callback type ${type} is not valid for interaction type ${handle.type}`,
			source: 'rules',
		};
		return answer(invalidFormBody(state, request, [problem]));
	}
	const sizes = request.uploads.map((upload) => upload.bytes.length);
	const problems = validate(state, request, schema, () =>
		type === 9
			? checkModalLimits(data, ['data'])
			: type === 8
				? checkChoiceLimits(data, ['data'])
				: checkMessageLimits(data, ['data'], sizes, state.settings.attachmentSizeLimit),
	);
	if (problems.length > 0) return answer(invalidFormBody(state, request, problems));

	const origin = { channelId: handle.channelId, guildId: handle.guildId, interactionId: handle.id };
	const flags = typeof data.flags === 'number' ? data.flags : 0;
	if (type === 4 || type === 5) {
		const message = state.messages.create({ ...origin, isEphemeral: (flags & EPHEMERAL) !== 0 }, type === 5);
		if (type === 4) {
			const refused = applyMessage(state, request, message, data, false, ['data']);
			if (refused) {
				state.messages.delete(message);
				return answer(refused);
			}
		}
		handle.original = message;
	} else if ((type === 6 || type === 7) && handle.componentMessage) {
		if (type === 7) {
			const refused = applyMessage(state, request, handle.componentMessage, data, true, ['data']);
			if (refused) return answer(refused);
		}
		handle.original = handle.componentMessage;
	}
	handle.callbackType = type;
	const reply = request.query.get('with_response') === 'true' ? withResponse(state, handle, type) : { status: 204 };
	return answer(reply, handle.original?.id);
}

/** Records a first response Discord refuses before reading it (not JSON, wrong Content-Type) as a refused callback. */
export function refuseCallback(
	state: SandboxState,
	handle: InteractionHandle,
	request: RestRequest,
	via: 'rest' | 'http',
	problem: Problem,
): void {
	respond(state, handle, request, invalidFormBody(state, request, [problem]), { kind: 'callback', via });
}

function withResponse(state: SandboxState, handle: InteractionHandle, type: number): RestReply {
	const message = type === 8 || type === 9 ? undefined : handle.original;
	const body: Json = {
		interaction: {
			id: handle.id,
			type: handle.type,
			response_message_id: message?.id,
			response_message_loading: message?.thinking ?? false,
			response_message_ephemeral: message?.isEphemeral ?? false,
		},
	};
	// The spec's InteractionCallbackResponse carries a resource only for types 4, 7 and 12.
	if ((type === 4 || type === 7) && message) body.resource = { type, message: state.toApiMessage(message) };
	return { status: 200, body };
}

/** The interaction behind a webhook token, or the Discord error a bot would get. */
async function webhookTarget(
	request: RestRequest,
	state: SandboxState,
	kind: SandboxResponse['kind'],
): Promise<InteractionHandle | RestReply> {
	const handle = state.interactions.get(request.params.token ?? '');
	if (!handle || request.params.app !== state.settings.applicationId)
		return refuse(state, request, 404, 10015, 'Unknown Webhook');
	// HTTP mode: a bot that answered "defer" in its HTTP response may edit before the stand-in has read that answer;
	// Discord applies the response first, so the edit waits for it (unless a POST /callback already acknowledged).
	if (handle.callbackType === undefined && handle.httpSettled) await handle.httpSettled;
	const refuseHere = (status: number, code: number, message: string) =>
		request.method === 'GET'
			? refuse(state, request, status, code, message)
			: respond(state, handle, request, refuse(state, request, status, code, message), { kind });
	if (performance.now() - handle.dispatchedAt > state.settings.tokenLifetimeMs) {
		return refuseHere(401, 50027, 'Invalid Webhook Token');
	}
	// Discord does not document this case; the stand-in answers as for an unknown webhook.
	if (handle.callbackType === undefined) return refuseHere(404, 10015, 'Unknown Webhook');
	return handle;
}

function findMessage(
	handle: InteractionHandle,
	state: SandboxState,
	id: string | undefined,
): SandboxMessage | undefined {
	if (id === '@original') return handle.original;
	const message = id ? state.messages.byId.get(id) : undefined;
	return message && (message.interactionId === handle.id || message === handle.original) ? message : undefined;
}

async function getMessage(request: RestRequest, state: SandboxState): Promise<RestReply> {
	const handle = await webhookTarget(request, state, 'edit');
	if (!('record' in handle)) return handle;
	const message = findMessage(handle, state, request.params.message);
	return message
		? { status: 200, body: state.toApiMessage(message) }
		: refuse(state, request, 404, 10008, 'Unknown Message');
}

async function editMessage(request: RestRequest, state: SandboxState): Promise<RestReply> {
	const handle = await webhookTarget(request, state, 'edit');
	if (!('record' in handle)) return handle;
	const answer = (reply: RestReply, messageId?: string) =>
		respond(state, handle, request, reply, { kind: 'edit', ...(messageId ? { messageId } : {}) });
	const message = findMessage(handle, state, request.params.message);
	if (!message) return answer(refuse(state, request, 404, 10008, 'Unknown Message'));
	const data = isObject(request.body) ? request.body : {};
	const sizes = request.uploads.map((upload) => upload.bytes.length);
	const problems = validate(state, request, 'IncomingWebhookUpdateRequestPartial', () =>
		checkMessageLimits(data, [], sizes, state.settings.attachmentSizeLimit),
	);
	if (problems.length > 0) return answer(invalidFormBody(state, request, problems));
	const refused = applyMessage(state, request, message, data, true, []);
	return answer(refused ?? { status: 200, body: state.toApiMessage(message) }, message.id);
}

async function deleteMessage(request: RestRequest, state: SandboxState): Promise<RestReply> {
	const handle = await webhookTarget(request, state, 'delete');
	if (!('record' in handle)) return handle;
	const message = findMessage(handle, state, request.params.message);
	if (!message) return refuse(state, request, 404, 10008, 'Unknown Message');
	state.messages.delete(message);
	if (message === handle.original) handle.original = undefined;
	return respond(state, handle, request, { status: 204 }, { kind: 'delete', messageId: message.id });
}

async function followUp(request: RestRequest, state: SandboxState): Promise<RestReply> {
	const handle = await webhookTarget(request, state, 'followUp');
	if (!('record' in handle)) return handle;
	const answer = (reply: RestReply, messageId?: string) =>
		respond(state, handle, request, reply, { kind: 'followUp', ...(messageId ? { messageId } : {}) });
	const data = isObject(request.body) ? request.body : {};
	const sizes = request.uploads.map((upload) => upload.bytes.length);
	const problems = validate(state, request, 'IncomingWebhookRequestPartial', () =>
		checkMessageLimits(data, [], sizes, state.settings.attachmentSizeLimit),
	);
	if (problems.length > 0) return answer(invalidFormBody(state, request, problems));
	// The first follow-up after an unedited defer replaces the "thinking" message and keeps the defer's visibility.
	const replacesThinking = handle.original?.thinking === true;
	const flags = typeof data.flags === 'number' ? data.flags : 0;
	const message = replacesThinking
		? handle.original!
		: state.messages.create({
				channelId: handle.channelId,
				guildId: handle.guildId,
				interactionId: handle.id,
				isEphemeral: (flags & EPHEMERAL) !== 0,
			});
	const refused = applyMessage(state, request, message, data, false, []);
	if (refused) {
		if (!replacesThinking) state.messages.delete(message);
		return answer(refused);
	}
	const wait = request.query.get('wait') === 'true';
	return answer(wait ? { status: 200, body: state.toApiMessage(message) } : { status: 204 }, message.id);
}

export const interactionRoutes: Route[] = [
	route('POST', '/interactions/:id/:token/callback', false, callback),
	route('POST', '/webhooks/:app/:token', false, followUp),
	route('GET', '/webhooks/:app/:token/messages/:message', false, getMessage),
	route('PATCH', '/webhooks/:app/:token/messages/:message', false, editMessage),
	route('DELETE', '/webhooks/:app/:token/messages/:message', false, deleteMessage),
];
