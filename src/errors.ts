import type { MessageKey } from './i18n/catalogue.js';
import type { FacingMessage } from './i18n/render-message.js';

/**
 * An expected failure to tell the member: a catalogue key and its values, translated when the
 * reply is written, into the language of whoever reads it.
 */
export class UserFacingError extends Error {
	override name = 'UserFacingError';
	constructor(
		readonly key: MessageKey,
		readonly vars: Record<string, unknown> = {},
		readonly more: FacingMessage[] = [],
	) {
		super(key);
	}
}

/**
 * The member lacks Manage Server for a change: a refusal for a permission, which the dashboard answers with 403
 * (any other refusal is a 400). Its words are the slash command's.
 */
export class ManageServerRequiredError extends UserFacingError {
	override name = 'ManageServerRequiredError';
}

/** A pasted key that cannot be a key; it never quotes the key. */
export class InvalidKeyError extends Error {
	override name = 'InvalidKeyError';
	constructor(readonly reason: 'length' | 'characters') {
		super(reason === 'length' ? 'the key has an impossible length' : 'the key has characters a key cannot have');
	}
}

/** A stored record that no configured secret decrypts: the member must link again. */
export class RelinkNeededError extends Error {
	override name = 'RelinkNeededError';
	constructor() {
		super('the stored key can no longer be decrypted; link it again');
	}
}

/** The Keyv backend failed; never to be read as "not linked". */
export class StorageUnavailableError extends Error {
	override name = 'StorageUnavailableError';
	constructor(options?: { cause?: unknown }) {
		super('the link storage is unavailable', options);
	}
}

/** Base of every expected failure of the stats endpoint. Messages never contain a key or a body. */
export class StatsApiError extends Error {
	override name = 'StatsApiError';
}

/** 401/403: the endpoint refused the key. */
export class KeyRejectedError extends StatsApiError {
	override name = 'KeyRejectedError';
	constructor(readonly status: number) {
		super(`the stats endpoint rejected the key (HTTP ${status})`);
	}
}

/** 404, 501, or 503 with code feature_unavailable: the endpoint is not released yet. */
export class FeatureUnavailableError extends StatsApiError {
	override name = 'FeatureUnavailableError';
	constructor(readonly status: number) {
		super(`the stats endpoint is not available (HTTP ${status})`);
	}
}

/** 429: try again after `retryAfterSeconds` (null when the endpoint gave no usable Retry-After). */
export class RateLimitedError extends StatsApiError {
	override name = 'RateLimitedError';
	constructor(readonly retryAfterSeconds: number | null) {
		super(`the stats endpoint is rate limiting (retry after ${retryAfterSeconds ?? '?'} s)`);
	}
}

/** 5xx, connection errors and timeouts. */
export class UpstreamUnreachableError extends StatsApiError {
	override name = 'UpstreamUnreachableError';
	constructor(
		readonly reason: string,
		options?: { cause?: unknown },
	) {
		super(`the stats endpoint is unreachable: ${reason}`, options);
	}
}

/** A body that is not the documented shape: not JSON, wrong types, negative counts, too large. */
export class ProtocolError extends StatsApiError {
	override name = 'ProtocolError';
	constructor(readonly reason: string) {
		super(`the stats endpoint answered something unexpected: ${reason}`);
	}
}

/** Why Discord refused a post or a change in a channel: nothing but an admin's action will change it. */
export type ChannelRefusal = 'channelGone' | 'missingPermissions';

/** Discord refused the bot in a channel (deleted, or a permission missing); retrying cannot help. */
export class ChannelRefusedError extends Error {
	override name = 'ChannelRefusedError';
	constructor(
		readonly reason: ChannelRefusal,
		options?: { cause?: unknown },
	) {
		super(reason === 'channelGone' ? 'the channel no longer exists' : 'the bot lacks a permission there', options);
	}
}

/** Discord no longer has the message (404 10008 Unknown Message): someone deleted it; a new one may be posted. */
export class MessageGoneError extends Error {
	override name = 'MessageGoneError';
	constructor(options?: { cause?: unknown }) {
		super('the message no longer exists', options);
	}
}

/**
 * Discord answered a channel rename with 429: at most two renames of a channel per 10 minutes. Nothing may be
 * sent to rename that channel again before `retryAfterMs` has passed.
 */
export class RenameRateLimitedError extends Error {
	override name = 'RenameRateLimitedError';
	constructor(
		readonly retryAfterMs: number,
		options?: { cause?: unknown },
	) {
		super(`Discord refuses renames of this channel for ${Math.ceil(retryAfterMs / 1000)} s`, options);
	}
}

/**
 * Discord refused a direct message (403 50007 Cannot send messages to this user): the member shares no server with
 * the bot or does not accept DMs from server members. Retrying changes nothing.
 */
export class DirectMessagesClosedError extends Error {
	override name = 'DirectMessagesClosedError';
	constructor(options?: { cause?: unknown }) {
		super('the member does not accept direct messages from the bot', options);
	}
}
