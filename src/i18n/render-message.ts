import { translator, translatorLocale, type MessageKey, type Translate } from './catalogue.js';
import { resolveLocale } from './locale.js';

/** A text before translation: a catalogue key and the values it takes. */
export interface FacingMessage {
	key: MessageKey;
	vars?: Record<string, unknown>;
	/** Further sentences, each on a line of its own. */
	more?: FacingMessage[];
}

/** Texts in the member's own language: every private reply uses this. */
export function memberTranslator(interaction: { locale: string }): Translate {
	return translator(resolveLocale(interaction.locale));
}

/** A value made of several messages (permission names, say), joined the way the reader's language joins a list. */
export interface MessageList {
	list: FacingMessage[];
}

/**
 * Renders a member-facing message; a value that is itself a message is translated first, and a list of messages
 * is joined for the reader's language, so the core can name things without choosing a word.
 */
export function renderMessage(t: Translate, message: FacingMessage): string {
	const vars: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(message.vars ?? {})) {
		if (isFacingMessage(value)) vars[name] = renderMessage(t, value);
		else if (isMessageList(value)) vars[name] = joinList(t, value.list);
		else vars[name] = value;
	}
	return [t(message.key, vars), ...(message.more ?? []).map((line) => renderMessage(t, line))].join('\n');
}

function isFacingMessage(value: unknown): value is FacingMessage {
	return typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string';
}

function isMessageList(value: unknown): value is MessageList {
	return typeof value === 'object' && value !== null && Array.isArray((value as { list?: unknown }).list);
}

function joinList(t: Translate, items: FacingMessage[]): string {
	const format = new Intl.ListFormat(translatorLocale(t), { type: 'conjunction' });
	return format.format(items.map((item) => renderMessage(t, item)));
}
