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

/** What a page shows for a mention, by id: `#general`, `@Stats Readers`, a member's name. */
export interface MentionNames {
	channels?: ReadonlyMap<string, string>;
	roles?: ReadonlyMap<string, string>;
	users?: ReadonlyMap<string, string>;
}

export interface DiscordTextOptions {
	names?: MentionNames;
	/** The page's language, for `<t:…>` timestamps (shown in UTC: the server does not know the reader's zone). */
	locale?: string;
	/** Epoch ms that relative timestamps (`<t:…:R>`) count from. */
	now?: number;
}

/**
 * A catalogue text written for Discord (`code`, **bold**, <#channel>, <@&role>, <t:…>) as HTML: escaped first,
 * then the two markdown spans the bot's texts use become elements, a mention whose name is known becomes `#name`,
 * `@name` (a browser cannot show Discord's mention chips), a timestamp a `<time>`; other mentions stay as text.
 */
export function discordTextToHtml(text: string, options: DiscordTextOptions = {}): SafeHtml {
	const { names = {} } = options;
	const escaped = escapeHtml(text)
		.replace(/`([^`]+)`/g, '<code>$1</code>')
		.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
		.replace(/&lt;#(\d{17,20})&gt;/g, (mention, id: string) => named(names.channels?.get(id)) ?? mention)
		.replace(/&lt;@&amp;(\d{17,20})&gt;/g, (mention, id: string) => named(names.roles?.get(id)) ?? mention)
		.replace(/&lt;@!?(\d{17,20})&gt;/g, (mention, id: string) => named(names.users?.get(id)) ?? mention)
		.replace(/&lt;t:(-?\d{1,13})(?::([tTdDfFR]))?&gt;/g, (_stamp, seconds: string, style = 'f') =>
			timeElement(Number(seconds) * 1000, style, options),
		)
		.replace(/\n/g, '<br>');
	return new SafeHtml(escaped);
}

function named(name: string | undefined): string | null {
	return name === undefined ? null : `<strong>${escapeHtml(name)}</strong>`;
}

const STAMP_FORMATS: Record<string, Intl.DateTimeFormatOptions> = {
	t: { timeStyle: 'short' },
	T: { timeStyle: 'medium' },
	d: { dateStyle: 'short' },
	D: { dateStyle: 'long' },
	f: { dateStyle: 'long', timeStyle: 'short' },
	F: { dateStyle: 'full', timeStyle: 'short' },
};

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
	['year', 365 * 86_400_000],
	['month', 30 * 86_400_000],
	['day', 86_400_000],
	['hour', 3_600_000],
	['minute', 60_000],
	['second', 1000],
];

/** Discord's timestamp styles as the page's language writes them. */
function timeElement(at: number, style: string, options: DiscordTextOptions): string {
	const locale = options.locale ?? 'en-US';
	const iso = new Date(at).toISOString();
	let label: string;
	if (style === 'R') {
		const delta = at - (options.now ?? Date.now());
		const [unit, size] = RELATIVE_UNITS.find(([, ms]) => Math.abs(delta) >= ms) ?? ['second', 1000];
		label = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(delta / size), unit);
	} else {
		const format = { ...STAMP_FORMATS[style], timeZone: 'UTC' };
		label = `${new Intl.DateTimeFormat(locale, format).format(at)}${format.timeStyle ? ' UTC' : ''}`;
	}
	return `<time datetime="${iso}">${escapeHtml(label)}</time>`;
}
