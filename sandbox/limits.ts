import type { Problem } from './problems.js';

// Discord's documented limits; lengths count Unicode code points.
const MAX_CONTENT = 2000;
const MAX_EMBEDS = 10;
const MAX_EMBED_TOTAL = 6000;
const MAX_FILES = 10;
const MAX_ROWS = 5;
const MAX_ROW_BUTTONS = 5;
const MAX_CUSTOM_ID = 100;
const MAX_BUTTON_LABEL = 80;
const MAX_MODAL_TITLE = 45;
const MAX_CHOICES = 25;
const IS_COMPONENTS_V2 = 32768;
const ALLOWED_FLAGS = 4 | 64 | 4096 | IS_COMPONENTS_V2;

type Json = Record<string, unknown>;

const length = (value: unknown): number => (typeof value === 'string' ? [...value].length : 0);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function tooLong(path: string[], max: number): Problem {
	return { path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.`, source: 'limits' };
}

function checkText(problems: Problem[], path: string[], value: unknown, max: number, required = false): number {
	const n = length(value);
	if (n > max) problems.push(tooLong(path, max));
	if (required && n === 0) {
		problems.push({ path, code: 'BASE_TYPE_REQUIRED', message: 'This field is required', source: 'limits' });
	}
	return n;
}

function checkEmbeds(problems: Problem[], path: string[], embeds: unknown[]): void {
	if (embeds.length > MAX_EMBEDS) problems.push(tooLong(path, MAX_EMBEDS));
	let total = 0;
	embeds.forEach((embed, i) => {
		if (!isObject(embed)) return;
		const at = [...path, String(i)];
		total += checkText(problems, [...at, 'title'], embed.title, 256);
		total += checkText(problems, [...at, 'description'], embed.description, 4096);
		if (isObject(embed.footer)) total += checkText(problems, [...at, 'footer', 'text'], embed.footer.text, 2048);
		if (isObject(embed.author)) total += checkText(problems, [...at, 'author', 'name'], embed.author.name, 256);
		const fields = asArray(embed.fields);
		if (fields.length > 25) problems.push(tooLong([...at, 'fields'], 25));
		fields.forEach((field, j) => {
			if (!isObject(field)) return;
			total += checkText(problems, [...at, 'fields', String(j), 'name'], field.name, 256, true);
			total += checkText(problems, [...at, 'fields', String(j), 'value'], field.value, 1024, true);
		});
	});
	if (total > MAX_EMBED_TOTAL) {
		problems.push({
			path,
			code: 'MAX_EMBED_SIZE_EXCEEDED',
			message: `Embed size exceeds maximum size of ${MAX_EMBED_TOTAL}`,
			source: 'limits',
		});
	}
}

function checkComponent(problems: Problem[], path: string[], component: Json): void {
	checkText(problems, [...path, 'custom_id'], component.custom_id, MAX_CUSTOM_ID);
	if (component.type === 2) checkText(problems, [...path, 'label'], component.label, MAX_BUTTON_LABEL);
	for (const key of ['components', 'accessory', 'component'] as const) {
		const children = key === 'components' ? asArray(component[key]) : [component[key]];
		children.forEach((child, i) => {
			if (isObject(child))
				checkComponent(problems, key === 'components' ? [...path, key, String(i)] : [...path, key], child);
		});
	}
}

function checkComponents(problems: Problem[], path: string[], components: unknown[], isV2: boolean): void {
	if (!isV2 && components.length > MAX_ROWS) problems.push(tooLong(path, MAX_ROWS));
	components.forEach((row, i) => {
		if (!isObject(row)) return;
		const rowPath = [...path, String(i)];
		if (row.type === 1 && asArray(row.components).length > MAX_ROW_BUTTONS) {
			problems.push(tooLong([...rowPath, 'components'], MAX_ROW_BUTTONS));
		}
		checkComponent(problems, rowPath, row);
	});
}

/** Limits on a message body (reply, edit, follow-up); `fileSizes` are the uploaded parts' byte counts. */
export function checkMessageLimits(data: Json, path: string[], fileSizes: number[], maxFileBytes: number): Problem[] {
	const problems: Problem[] = [];
	checkText(problems, [...path, 'content'], data.content, MAX_CONTENT);
	checkEmbeds(problems, [...path, 'embeds'], asArray(data.embeds));
	const flags = typeof data.flags === 'number' ? data.flags : 0;
	const isV2 = (flags & IS_COMPONENTS_V2) !== 0;
	checkComponents(problems, [...path, 'components'], asArray(data.components), isV2);
	if ((flags & ~ALLOWED_FLAGS) !== 0) {
		problems.push({
			path: [...path, 'flags'],
			code: 'MESSAGE_FLAGS_INVALID',
			message: 'Invalid flags',
			source: 'limits',
		});
	}
	if (isV2 && (length(data.content) > 0 || asArray(data.embeds).length > 0)) {
		problems.push({
			path: [...path, 'content'],
			code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
			message: 'The content and embeds fields cannot be used when using MessageFlags.IS_COMPONENTS_V2',
			source: 'limits',
		});
	}
	if (fileSizes.length > MAX_FILES) problems.push(tooLong(['files'], MAX_FILES));
	fileSizes.forEach((size, i) => {
		if (size > maxFileBytes) {
			problems.push({
				path: [`files[${i}]`],
				code: 'BASE_TYPE_MAX_FILE_SIZE',
				message: `File cannot be larger than ${maxFileBytes} bytes.`,
				source: 'limits',
			});
		}
	});
	return problems;
}

/** Limits on a modal (callback type 9). */
export function checkModalLimits(data: Json, path: string[]): Problem[] {
	const problems: Problem[] = [];
	checkText(problems, [...path, 'title'], data.title, MAX_MODAL_TITLE, true);
	checkText(problems, [...path, 'custom_id'], data.custom_id, MAX_CUSTOM_ID, true);
	const components = asArray(data.components);
	if (components.length > MAX_ROWS) problems.push(tooLong([...path, 'components'], MAX_ROWS));
	components.forEach((row, i) => {
		if (isObject(row)) checkComponent(problems, [...path, 'components', String(i)], row);
	});
	return problems;
}

/** Limits on autocomplete choices (callback type 8). */
export function checkChoiceLimits(data: Json, path: string[]): Problem[] {
	const choices = asArray(data.choices);
	return choices.length > MAX_CHOICES ? [tooLong([...path, 'choices'], MAX_CHOICES)] : [];
}

const COMMAND_NAME = /^[-_'\p{Ll}\p{Lo}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Registration rules: lower-case names of 1–32, descriptions of 1–100, ≤ 25 options, required before optional. */
export function checkCommandLimits(command: Json, path: string[]): Problem[] {
	const problems: Problem[] = [];
	const invalid = (at: string[], message: string): void => {
		problems.push({ path: at, code: 'APPLICATION_COMMAND_INVALID', message, source: 'limits' });
	};
	if (typeof command.name !== 'string' || !COMMAND_NAME.test(command.name)) {
		invalid([...path, 'name'], 'Command name is invalid');
	}
	const isChatInput = command.type === undefined || command.type === 1;
	if (isChatInput) checkText(problems, [...path, 'description'], command.description, 100, true);
	const checkOptions = (options: unknown[], at: string[]): void => {
		if (options.length > 25) problems.push(tooLong(at, 25));
		let seenOptional = false;
		options.forEach((option, i) => {
			if (!isObject(option)) return;
			const optionPath = [...at, String(i)];
			if (typeof option.name !== 'string' || !COMMAND_NAME.test(option.name)) {
				invalid([...optionPath, 'name'], 'Option name is invalid');
			}
			checkText(problems, [...optionPath, 'description'], option.description, 100, true);
			if (option.type === 1 || option.type === 2) {
				checkOptions(asArray(option.options), [...optionPath, 'options']);
				return;
			}
			if (option.required === true && seenOptional) {
				invalid([...optionPath, 'required'], 'Required options must be placed before non-required options');
			}
			if (option.required !== true) seenOptional = true;
		});
	};
	checkOptions(asArray(command.options), [...path, 'options']);
	return problems;
}
