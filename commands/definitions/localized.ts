import { commandLocalizations, translator, type MessageKey } from '../../src/i18n/index.js';

const en = translator('en-US');

/** A description in English (Discord's default) with the seven other languages beside it. */
export function described<T extends { setDescription(text: string): T; setDescriptionLocalizations(map: object): T }>(
	builder: T,
	key: MessageKey,
): T {
	return builder.setDescription(en(key)).setDescriptionLocalizations(commandLocalizations(key));
}

/** Choices whose names are translated; the values stay what the handlers read. */
export function localizedChoices<V extends string | number>(values: readonly V[], keyOf: (value: V) => MessageKey) {
	return values.map((value) => ({
		name: en(keyOf(value)),
		name_localizations: commandLocalizations(keyOf(value)),
		value,
	}));
}
