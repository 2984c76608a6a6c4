/** How the registered commands differ from the definitions `npm run register` sends, by command name. */
export interface CommandsDiff {
	missing: string[];
	changed: string[];
	extra: string[];
}

/** Fields Discord adds to every registered command; they say nothing about the definition. */
const DISCORD_FIELDS = new Set([
	'id',
	'application_id',
	'version',
	'guild_id',
	'name_localized',
	'description_localized',
]);

/**
 * Compares what Discord holds with what would be sent. A definition field counts as changed only when
 * Discord's value differs; fields the definition leaves out are Discord's defaults and are ignored, as are
 * empty values on either side (`required: false`, `options: []`, `null`), which Discord stores either way.
 */
export function diffCommands(definitions: readonly object[], registered: readonly object[]): CommandsDiff {
	const nameOf = (command: object) => String((command as { name?: unknown }).name);
	const byName = new Map(registered.map((command) => [nameOf(command), command]));
	const wanted = new Set(definitions.map(nameOf));
	const diff: CommandsDiff = { missing: [], changed: [], extra: [] };
	for (const definition of definitions) {
		const name = nameOf(definition);
		const found = byName.get(name);
		if (found === undefined) diff.missing.push(name);
		else if (!covers(normalize(definition), normalize(found))) diff.changed.push(name);
	}
	for (const command of registered) if (!wanted.has(nameOf(command))) diff.extra.push(nameOf(command));
	return diff;
}

/** Drops empty values and Discord's own fields, recursively; numbers and strings stay as they are. */
function normalize(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(normalize);
	if (typeof value !== 'object' || value === null) return value;
	const result: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(value)) {
		if (DISCORD_FIELDS.has(key) || isEmpty(field)) continue;
		result[key] = normalize(field);
	}
	return result;
}

function isEmpty(value: unknown): boolean {
	if (value === null || value === undefined || value === false) return true;
	if (Array.isArray(value)) return value.length === 0;
	return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Every field of `wanted` is in `actual` with the same value; arrays must match element by element. */
function covers(wanted: unknown, actual: unknown): boolean {
	if (Array.isArray(wanted)) {
		return (
			Array.isArray(actual) && wanted.length === actual.length && wanted.every((item, i) => covers(item, actual[i]))
		);
	}
	if (typeof wanted === 'object' && wanted !== null) {
		if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
		const record = actual as Record<string, unknown>;
		return Object.entries(wanted).every(([key, field]) => covers(field, record[key]));
	}
	// Permissions are a bit set Discord sends as a string and builders may hold as one; compare as text.
	return String(wanted) === String(actual);
}
