// The admin's visit to the manage page in the demo: two changes sent through its forms as a browser without
// JavaScript sends them (the form's own action, the choices its selects offer), then the page the last one comes
// back to. The demo saves that page in each language beside the other dashboard pages.

/** A logged-in browser without JavaScript, as web.ts's Visitor is: its cookies go with every request. */
interface FormBrowser {
	get(url: string): Promise<Response>;
	post(path: string, fields: Record<string, string>): Promise<Response>;
}

/** What the admin changes: `/settings set default-days:7`, and `/alert add kind:no-sends threshold:24`. */
const DEFAULT_DAYS = '7';
const ALERT = { kind: 'no-sends', threshold: '24' };

/** The manage page's path after the admin's changes, with `lang=` for `locale`: it says what the last form did. */
export type ManagePagePath = (locale: string) => string;

/**
 * Sets default-days and adds an alert through the manage page's forms; answers where the page with the outcome is.
 * Throws when a form is refused or the page does not show what it did, so the demo never saves a broken page.
 */
export async function changeThroughManageForms(admin: FormBrowser, guildId: string): Promise<ManagePagePath> {
	const managePath = `/servers/${guildId}/manage`;
	const page = await admin.get(`${managePath}?lang=en-US`);
	if (page.status !== 200) throw new Error(`the manage page answered ${page.status} to the admin`);
	const html = await page.text();
	await submit(admin, formAction(html, 'settings'), { 'default-days': DEFAULT_DAYS }, 'settings-saved');
	const channel = firstChannel(html, 'alert-channel');
	const done = await submit(admin, formAction(html, 'alerts'), { ...ALERT, channel }, 'alert-added');
	return (locale) => `${managePath}?done=${done}&lang=${encodeURIComponent(locale)}`;
}

/** Checks a saved manage page shows the outcome line, the new default and the alert in its list. */
export function assertShowsChanges(html: string, locale: string): void {
	const missing = [
		[/<p class="outcome" role="status">/u, 'the outcome line'],
		[new RegExp(`<option value="${DEFAULT_DAYS}" selected>`, 'u'), `default-days ${DEFAULT_DAYS}`],
		[/<span id="alerts-[^"]+">/u, 'the alert in the list'],
	].filter(([pattern]) => !(pattern as RegExp).test(html));
	if (missing.length > 0) {
		throw new Error(`the ${locale} manage page lacks ${missing.map(([, what]) => what as string).join(', ')}`);
	}
}

/** The action of the page's form that posts to `/servers/{id}/<what>`, as the browser would send it. */
function formAction(html: string, what: string): string {
	const action = new RegExp(`<form method="post" action="(/servers/\\d+/${what}(?:\\?[^"]*)?)"`, 'u').exec(html)?.[1];
	if (!action) throw new Error(`the manage page has no ${what} form`);
	return action.replaceAll('&amp;', '&');
}

/** The first channel the select with `id` offers, after its empty "Choose a channel…" (which the form requires). */
function firstChannel(html: string, id: string): string {
	const choices = new RegExp(`<select id="${id}"[^>]*>([\\s\\S]*?)</select>`, 'u').exec(html)?.[1] ?? '';
	const value = /<option value="(\d+)"/u.exec(choices)?.[1];
	if (value === undefined) throw new Error(`the manage page has no channels in #${id}`);
	return value;
}

/** POSTs a form; answers the outcome code of its 303, which must be `expected`. */
async function submit(admin: FormBrowser, action: string, fields: Record<string, string>, expected: string) {
	const response = await admin.post(action, fields);
	const location = response.headers.get('location') ?? '';
	const done = new URL(location, 'http://dashboard').searchParams.get('done');
	if (response.status !== 303 || done !== expected) {
		// A refusal page holds the slash command's words, never what was typed: safe to show.
		const words = response.status === 303 ? location : (await response.text()).replace(/<[^>]+>/gu, ' ');
		throw new Error(`POST ${action} answered ${response.status}, not ${expected}: ${words.slice(0, 300)}`);
	}
	return done;
}
