import type { Problem } from './problems.js';
import { nextSnowflake } from './snowflake.js';
import type { Json, SandboxAttachment, SandboxFile, SandboxMessage } from './records.js';

const EPHEMERAL = 64;
const LOADING = 128;

/** A file part of a multipart body: `files[index]`. */
export interface Upload extends SandboxFile {
	index: number;
}

/** Where and how a message is created: its owner interaction and base URL for attachment links. */
export interface MessageOrigin {
	channelId: string;
	guildId: string | null;
	interactionId: string | null;
	isEphemeral: boolean;
}

interface StoredAttachment {
	attachment: SandboxAttachment;
	file: SandboxFile;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
	const isPng =
		bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
	return isPng ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : undefined;
}

/** Holds every message the bot created, the bytes of their attachments, and public messages per channel. */
export class MessageStore {
	readonly byId = new Map<string, SandboxMessage>();
	readonly byChannel = new Map<string, SandboxMessage[]>();
	readonly files = new Map<string, SandboxFile>();
	private baseUrl = '';

	setBaseUrl(url: string): void {
		this.baseUrl = url;
	}

	/** An empty message; the caller fills it with `prepare` + `commit` so a refused body changes nothing. */
	create(origin: MessageOrigin, thinking = false, listInChannel = !origin.isEphemeral): SandboxMessage {
		const message: SandboxMessage = {
			id: nextSnowflake(),
			channelId: origin.channelId,
			guildId: origin.guildId,
			interactionId: origin.interactionId,
			content: '',
			embeds: [],
			components: [],
			attachments: [],
			flags: (origin.isEphemeral ? EPHEMERAL : 0) | (thinking ? LOADING : 0),
			isEphemeral: origin.isEphemeral,
			thinking,
			files: [],
			createdAt: Date.now(),
			editedAt: null,
		};
		this.byId.set(message.id, message);
		if (listInChannel) {
			const list = this.byChannel.get(origin.channelId) ?? [];
			list.push(message);
			this.byChannel.set(origin.channelId, list);
		}
		return message;
	}

	/**
	 * Works out what `message` would look like after applying `data` with `uploads`, following Discord's edit rules:
	 * `attachments` lists what to keep plus new uploads (id = files[n] index); without it, existing files stay.
	 * `attachment://NAME` in embeds must name one of the resulting files and is rewritten to the sandbox URL.
	 */
	prepare(message: SandboxMessage, data: Json, uploads: Upload[], isEdit: boolean, path: string[]) {
		const problems: Problem[] = [];
		const existing = message.attachments.map((attachment, i) => ({ attachment, file: message.files[i] }));
		const result: StoredAttachment[] = [];
		const used = new Set<number>();
		const addUpload = (upload: Upload, filename: string): void => {
			used.add(upload.index);
			const id = nextSnowflake();
			const url = `${this.baseUrl}/attachments/${message.channelId}/${id}/${encodeURIComponent(filename)}`;
			const attachment: SandboxAttachment = {
				id,
				filename,
				size: upload.bytes.length,
				url,
				proxy_url: url,
				content_type: upload.contentType,
				...pngSize(upload.bytes),
			};
			result.push({ attachment, file: { name: filename, contentType: upload.contentType, bytes: upload.bytes } });
		};
		if (Array.isArray(data.attachments)) {
			data.attachments.forEach((entry: unknown, i) => {
				const id = isObject(entry) ? String(entry.id) : '';
				const kept = existing.find((item) => item.attachment.id === id);
				const upload = uploads.find((item) => String(item.index) === id);
				if (kept?.file) result.push({ attachment: kept.attachment, file: kept.file });
				else if (upload)
					addUpload(upload, isObject(entry) && typeof entry.filename === 'string' ? entry.filename : upload.name);
				else {
					problems.push({
						path: [...path, 'attachments', String(i), 'id'],
						code: 'ATTACHMENT_NOT_FOUND',
						message: `Unknown attachment id ${id}: neither kept nor uploaded`,
						source: 'rules',
					});
				}
			});
		} else if (isEdit) {
			for (const item of existing) if (item.file) result.push({ attachment: item.attachment, file: item.file });
		}
		for (const upload of uploads) if (!used.has(upload.index)) addUpload(upload, upload.name);

		const embeds = Array.isArray(data.embeds) ? structuredClone(data.embeds as Json[]) : isEdit ? message.embeds : [];
		if (Array.isArray(data.embeds)) {
			embeds.forEach((embed, i) => this.rewriteEmbedUrls(embed, result, [...path, 'embeds', String(i)], problems));
		}
		return { problems, attachments: result, embeds };
	}

	/** Applies a prepared change; `data` fields that are absent keep their current value (edit semantics). */
	commit(message: SandboxMessage, data: Json, prepared: ReturnType<MessageStore['prepare']>, isEdit: boolean): void {
		if ('content' in data || !isEdit) message.content = typeof data.content === 'string' ? data.content : '';
		if ('components' in data || !isEdit) message.components = Array.isArray(data.components) ? data.components : [];
		message.embeds = prepared.embeds;
		message.attachments = prepared.attachments.map((item) => item.attachment);
		message.files = prepared.attachments.map((item) => item.file);
		for (const item of prepared.attachments) this.files.set(item.attachment.id, item.file);
		const requested = typeof data.flags === 'number' ? data.flags : isEdit ? message.flags : 0;
		// Ephemerality is fixed when the message is created; an edit cannot change it.
		message.flags = (requested & ~(EPHEMERAL | LOADING)) | (message.isEphemeral ? EPHEMERAL : 0);
		if (isEdit && !message.thinking) message.editedAt = Date.now();
		message.thinking = false;
	}

	delete(message: SandboxMessage): void {
		this.byId.delete(message.id);
		const list = this.byChannel.get(message.channelId);
		if (list)
			this.byChannel.set(
				message.channelId,
				list.filter((item) => item !== message),
			);
	}

	private rewriteEmbedUrls(embed: Json, attachments: StoredAttachment[], path: string[], problems: Problem[]): void {
		for (const [key, field] of [
			['image', 'url'],
			['thumbnail', 'url'],
			['author', 'icon_url'],
			['footer', 'icon_url'],
		] as const) {
			const holder = embed[key];
			if (!isObject(holder) || typeof holder[field] !== 'string') continue;
			const url = holder[field];
			if (!url.startsWith('attachment://')) continue;
			const name = url.slice('attachment://'.length);
			const match = attachments.find((item) => item.attachment.filename === name);
			if (!match) {
				problems.push({
					path: [...path, key, field],
					code: 'ATTACHMENT_NOT_FOUND',
					message: `${url} names no uploaded or kept file`,
					source: 'rules',
				});
				continue;
			}
			holder[field] = match.attachment.url;
			holder[field === 'url' ? 'proxy_url' : 'proxy_icon_url'] = match.attachment.proxy_url;
			if (field === 'url' && match.attachment.width !== undefined) {
				holder.width = match.attachment.width;
				holder.height = match.attachment.height;
			}
		}
	}
}
