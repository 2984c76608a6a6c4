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
	data: Json;
	flags: number;
	files: SandboxFile[];
	/** Milliseconds after the interaction was dispatched. */
	at: number;
	/** HTTP status the sandbox answered with (4xx when Discord would have refused it). */
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

/** A request refused with a Discord error code, other than schema violations (10062, 40060, 10015, 401, …). */
export interface SandboxRejection {
	method: string;
	path: string;
	status: number;
	code: number;
	message: string;
	at: number;
}
