/** HTML that is already safe: built by `html`, never from a raw string a member or Discord supplied. */
export class SafeHtml {
	constructor(readonly text: string) {}
	toString(): string {
		return this.text;
	}
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an element or a quoted attribute: every character that could open markup is escaped. */
export function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

type Interpolated = SafeHtml | string | number | null | undefined | false | readonly Interpolated[];

function render(value: Interpolated): string {
	if (value === null || value === undefined || value === false) return '';
	if (value instanceof SafeHtml) return value.text;
	if (Array.isArray(value)) return value.map(render).join('');
	return escapeHtml(String(value as string | number));
}

/** A template whose every value is escaped unless it is SafeHtml itself. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
	let out = strings[0] ?? '';
	values.forEach((value, index) => {
		out += render(value) + (strings[index + 1] ?? '');
	});
	return new SafeHtml(out);
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` as \u escapes, so no value (an account
 * named `</script>`) can end the block, and the line separators JavaScript parsers once choked on.
 */
export function jsonForScript(value: unknown): SafeHtml {
	return new SafeHtml(
		JSON.stringify(value)
			.replace(/</g, '\\u003c')
			.replace(/>/g, '\\u003e')
			.replace(/&/g, '\\u0026')
			.replace(/\u2028/g, '\\u2028')
			.replace(/\u2029/g, '\\u2029'),
	);
}

/**
 * A catalogue text written for Discord (`code`, **bold**, <@&role>) as HTML: escaped first, then the two
 * markdown spans the bot's texts use become elements; mentions stay as text (`roleName` replaces a role's).
 */
export function discordTextToHtml(text: string): SafeHtml {
	const escaped = escapeHtml(text)
		.replace(/`([^`]+)`/g, '<code>$1</code>')
		.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
		.replace(/\n/g, '<br>');
	return new SafeHtml(escaped);
}
