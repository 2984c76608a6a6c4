import { translator, type MessageKey, type Translate } from './catalogue.js';
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

/** Renders a member-facing message; a value that is itself a message is translated first. */
export function renderMessage(t: Translate, message: FacingMessage): string {
	const vars: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(message.vars ?? {})) {
		vars[name] = isFacingMessage(value) ? renderMessage(t, value) : value;
	}
	return [t(message.key, vars), ...(message.more ?? []).map((line) => renderMessage(t, line))].join('\n');
}

function isFacingMessage(value: unknown): value is FacingMessage {
	return typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string';
}
