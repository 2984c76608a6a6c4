import type { API } from '@discordjs/core/http-only';
import {
	InteractionResponseType,
	InteractionType,
	MessageFlags,
	type APIInteraction,
	type APIInteractionResponse,
} from 'discord.js';
import type { Logger } from '../logger.js';
import { postCallback, restFollowUps, type InteractionResponder, type MessageBody } from './responder.js';

/** What the HTTP request that carried the interaction is answered with. */
export type FirstAnswer = { status: 200; body: APIInteractionResponse } | { status: 202 };

export interface InlineResponder {
	responder: InteractionResponder;
	/** Called once the handler is done: answers the request if the handler never did. */
	settle(): Promise<void>;
	/** The request was answered otherwise (an interaction type the bot does not take): no automatic defer. */
	cancel(): void;
}

/**
 * HTTP delivery: the first response goes back in the HTTP answer, the rest over REST. A handler
 * that has not answered after `autoDeferMs` gets a private "thinking…" sent for it, so Discord's
 * 3 s window holds whatever the store or the stats service do; its later answer becomes an edit.
 */
export function inlineResponder(options: {
	api: API;
	raw: APIInteraction;
	send: (answer: FirstAnswer) => Promise<void>;
	autoDeferMs: number;
	log: Logger;
}): InlineResponder {
	const { api, raw, send, log } = options;
	const followUps = restFollowUps(api);
	let state: 'pending' | 'answered' | 'auto-deferred' = 'pending';
	const autoDefer = autoDeferResponse(raw);
	const timer = setTimeout(() => {
		if (state !== 'pending') return;
		state = 'auto-deferred';
		log.info({ afterMs: options.autoDeferMs }, 'handler slow to answer: deferred for it');
		send({ status: 200, body: autoDefer }).catch((error: unknown) => log.warn({ err: error }, 'auto-defer not sent'));
	}, options.autoDeferMs);
	timer.unref();

	const responder: InteractionResponder = {
		...followUps,
		async respond(to, response, files) {
			if (state === 'answered') throw new Error('the interaction was already answered');
			if (state === 'auto-deferred') {
				await answerAfterAutoDefer(response, autoDefer, (body, asFollowUp) =>
					asFollowUp ? followUps.followUp(to, body, files) : followUps.editOriginal(to, withoutFlags(body), files),
				);
				return;
			}
			state = 'answered';
			clearTimeout(timer);
			// Discord takes files only as multipart: acknowledge through the callback route and the request gets 202.
			if (files.length > 0) {
				await postCallback(api, to, response, files);
				await send({ status: 202 });
			} else {
				await send({ status: 200, body: response });
			}
		},
	};
	return {
		responder,
		cancel: () => {
			state = 'answered';
			clearTimeout(timer);
		},
		async settle() {
			clearTimeout(timer);
			if (state !== 'pending') return;
			// The router answers every failure itself; reaching this means a handler returned without a word.
			state = 'answered';
			log.error('handler finished without answering: deferred privately so the member is not left hanging');
			await send({ status: 200, body: autoDefer });
		},
	};
}

/** The neutral first response: private "thinking…" for commands and modals, a silent ack for buttons. */
function autoDeferResponse(raw: APIInteraction): APIInteractionResponse {
	switch (raw.type) {
		case InteractionType.MessageComponent:
			return { type: InteractionResponseType.DeferredMessageUpdate };
		case InteractionType.ApplicationCommandAutocomplete:
			return { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices: [] } };
		default:
			return {
				type: InteractionResponseType.DeferredChannelMessageWithSource,
				data: { flags: MessageFlags.Ephemeral },
			};
	}
}

/** What the handler's own first response becomes once a defer went out in its place. */
async function answerAfterAutoDefer(
	response: APIInteractionResponse,
	sent: APIInteractionResponse,
	deliver: (body: MessageBody, asFollowUp: boolean) => Promise<void>,
): Promise<void> {
	switch (response.type) {
		case InteractionResponseType.ChannelMessageWithSource:
			// After a silent button ack the original is the clicked message: a reply must be a new message.
			await deliver(response.data as MessageBody, sent.type === InteractionResponseType.DeferredMessageUpdate);
			return;
		case InteractionResponseType.UpdateMessage:
			await deliver(response.data as MessageBody, false);
			return;
		case InteractionResponseType.Modal:
			throw new Error('too late to open a modal: the interaction was deferred after its 3 s window neared');
		default:
			// A defer or autocomplete answer: the automatic one already stands for it.
			return;
	}
}

function withoutFlags(body: MessageBody): MessageBody {
	const { flags: _flags, ...rest } = body;
	return rest;
}
