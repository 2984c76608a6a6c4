export type Json = Record<string, unknown>;

/** A file the bot uploaded, as the sandbox received it. */
export interface SandboxFile {
	name: string;
	contentType: string;
	bytes: Buffer;
}

/** An attachment as Discord reports it on a message; `url` points at the sandbox, which serves the bytes. */
export interface SandboxAttachment {
	id: string;
	filename: string;
	size: number;
	url: string;
	proxy_url: string;
	content_type: string;
	width?: number;
	height?: number;
}

/** A message as it stands now (objects are updated in place by later edits). */
export interface SandboxMessage {
	id: string;
	channelId: string;
	guildId: string | null;
	interactionId: string | null;
	content: string;
	embeds: Json[];
	components: Json[];
	attachments: SandboxAttachment[];
	flags: number;
	isEphemeral: boolean;
	/** A deferred reply that nothing has edited yet ("Bot is thinking…"). */
	thinking: boolean;
	/** The uploaded bytes behind `attachments`, same order. */
	files: SandboxFile[];
	createdAt: number;
	editedAt: number | null;
}

/** One thing the bot did with an interaction, in arrival order. */
export interface SandboxResponse {
	kind: 'callback' | 'edit' | 'followUp' | 'delete';
	/** Callback type (4 reply, 5 defer, 6 deferUpdate, 7 update, 8 autocomplete, 9 modal); undefined for webhooks. */
	type?: number;
	/** How a callback came: `POST /interactions/{id}/{token}/callback`, or as the body of the HTTP response (HTTP mode). */
	via?: 'rest' | 'http';
	data: Json;
	flags: number;
	files: SandboxFile[];
	/** Milliseconds after the interaction was dispatched. */
	at: number;
	/**
	 * HTTP status the sandbox answered with (4xx when Discord would have refused it). For a callback in an HTTP
	 * response: the verdict a POST /callback would have got (204 accepted, 400 40060, 404 10062, 400 50035).
	 */
	status: number;
	/** Discord error code when refused (10062, 40060, 10015, 50027, 50035). */
	errorCode?: number;
	messageId?: string;
}

/** A request body that Discord would refuse, recorded so a test can assert there are none. */
export interface SandboxViolation {
	method: string;
	path: string;
	problems: { path: string; code: string; message: string; source: string }[];
	body: unknown;
	at: number;
}

export interface UnknownRequest {
	method: string;
	path: string;
	at: number;
}

/** A channel rename Discord accepted (`PATCH /channels/{id}` with a name). */
export interface ChannelRename {
	channelId: string;
	name: string;
	/** The sandbox clock (Unix ms) when it was accepted. */
	at: number;
}

/** A request refused with a Discord error code, other than schema violations (10062, 40060, 10015, 401, …). */
export interface SandboxRejection {
	method: string;
	path: string;
	status: number;
	code: number;
	message: string;
	at: number;
}

/** Where an interaction was delivered. */
export type InteractionDelivery =
	| {
			via: 'gateway';
			sessionId: string;
			shardId: number;
			shardCount: number;
			/** False when the session was away: the dispatch waits in its replay buffer for a RESUME. */
			connected: boolean;
	  }
	| { via: 'http'; url: string };

/** HTTP mode: the signed request the stand-in sent and the endpoint's answer. */
export interface InteractionHttpExchange {
	url: string;
	timestamp: string;
	signature: string;
	/** The exact bytes signed and sent. */
	body: Buffer;
	/** The endpoint's HTTP status; 0 when the request failed (refused connection, no answer in time). */
	status: number;
	contentType: string;
	responseBody: Buffer;
	/** Milliseconds from dispatch to the end of the answer. */
	at: number;
	error?: string;
}
