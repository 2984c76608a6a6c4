// The dashboard part of the demo: a member and an admin log in through the stand-in's OAuth2 and the pages
// they see are written to demo-output/web/<locale>/ (HTML that opens offline, its scripts and stylesheet copied
// beside it), with screenshots of those files when a Chromium is installed. The demo calls both on its own bot's
// dashboard; run this file alone and it starts a stack of its own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { staticFiles } from '../../src/web/static-files.js';
import { assertShowsChanges, changeThroughManageForms } from './manage.js';
import { openScreenshotTab, screenshotDashboardPages } from './screenshots.js';
import { startWebStack, WEB_PEOPLE, type DashboardSite } from './web-stack.js';

const LOCALES = ['en-US', 'de', 'ja'] as const;

/** One person's cookies and the dashboard's answers, without a browser. */
export class Visitor {
	private readonly cookies = new Map<string, string>();

	constructor(private readonly origin: string) {}

	async get(url: string): Promise<Response> {
		const response = await fetch(url.startsWith('http') ? url : `${this.origin}${url}`, {
			redirect: 'manual',
			headers: url.startsWith(this.origin) || !url.startsWith('http') ? { cookie: this.cookieHeader() } : {},
		});
		this.keep(response);
		return response;
	}

	/**
	 * A form POST with the Origin a browser on the dashboard sends; `at` is the process it reaches, another one
	 * behind the same origin (a load balancer's choice) or, by default, the origin itself.
	 */
	async post(path: string, fields: Record<string, string>, at = this.origin): Promise<Response> {
		const response = await fetch(`${at}${path}`, {
			method: 'POST',
			redirect: 'manual',
			headers: {
				cookie: this.cookieHeader(),
				origin: this.origin,
				'content-type': 'application/x-www-form-urlencoded',
			},
			body: new URLSearchParams(fields).toString(),
		});
		this.keep(response);
		return response;
	}

	/** A page's HTML from the process at `at` (the origin by default), with this visitor's cookies; it must be a 200. */
	async page(path: string, at = this.origin): Promise<string> {
		const response = await fetch(`${at}${path}`, { redirect: 'manual', headers: { cookie: this.cookieHeader() } });
		if (response.status !== 200) throw new Error(`${at}${path} answered ${response.status}`);
		return response.text();
	}

	/** Follows the login through the stand-in's authorization page back to the dashboard. */
	async logIn(): Promise<void> {
		let response = await this.get('/login');
		while (response.status === 302 || response.status === 303) {
			response = await this.get(response.headers.get('location')!);
		}
		if (!this.cookies.has('adstats_session')) throw new Error(`login failed: ${response.status}`);
	}

	sessionCookie(): { name: string; value: string } {
		return { name: 'adstats_session', value: this.cookies.get('adstats_session') ?? '' };
	}

	private cookieHeader(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
	}

	private keep(response: Response): void {
		for (const line of response.headers.getSetCookie()) {
			const [pair = ''] = line.split(';');
			const at = pair.indexOf('=');
			const value = pair.slice(at + 1);
			if (value === '' || /max-age=0/iu.test(line)) this.cookies.delete(pair.slice(0, at));
			else this.cookies.set(pair.slice(0, at), value);
		}
	}
}

interface DemoPage {
	file: string;
	path: string;
	who: 'member' | 'admin' | 'outsider' | 'nobody';
}

/** Copies the dashboard's static files beside the pages, so a saved page opens with its chart. */
function copyStatic(dir: string): void {
	const target = join(dir, 'static');
	mkdirSync(target, { recursive: true });
	// Under the hashed names the pages link to.
	for (const { file, body } of staticFiles().published()) writeFileSync(join(target, file), body);
}

/**
 * The pages a member, an admin, a member without the role and a visitor see, written as offline HTML for each
 * language, and the admin's manage page after two changes through its forms; `site` is a running dashboard whose
 * server has the people seatDashboardPeople() seats. Answers the summary lines.
 */
export async function writeDashboardPages(site: DashboardSite, out: string): Promise<string> {
	mkdirSync(out, { recursive: true });
	copyStatic(out);
	const visitors = await logInEveryone(site);
	const publicPath = await turnOnPublicPage(site, visitors.admin);
	const pages: DemoPage[] = [
		{ file: 'index-logged-out', path: '/', who: 'nobody' },
		{ file: 'index', path: '/', who: 'member' },
		{ file: 'me', path: '/me', who: 'member' },
		{ file: 'server-90-days-joins', path: `/servers/${site.guildId}?days=90&metric=joins`, who: 'member' },
		{ file: 'server-admin', path: `/servers/${site.guildId}`, who: 'admin' },
		{ file: 'server-refused', path: `/servers/${site.guildId}`, who: 'outsider' },
		{ file: 'public', path: publicPath, who: 'nobody' },
		// What the bot stores and for how long: the page to give as the Privacy Policy URL.
		{ file: 'privacy', path: '/privacy', who: 'nobody' },
	];
	const save = async (who: DemoPage['who'], path: string, file: string): Promise<string> => {
		const html = (await (await visitors[who].get(path)).text()).replaceAll('"/static/', '"../static/');
		writeFileSync(join(out, file), html);
		return html;
	};
	for (const locale of LOCALES) {
		mkdirSync(join(out, locale), { recursive: true });
		for (const page of pages) {
			const joiner = page.path.includes('?') ? '&' : '?';
			await save(page.who, `${page.path}${joiner}lang=${locale}`, join(locale, `${page.file}.html`));
		}
	}
	// After the pages above: the new default-days would change what the server page shows by default.
	const managePage = await changeThroughManageForms(visitors.admin, site.guildId);
	for (const locale of LOCALES) {
		assertShowsChanges(await save('admin', managePage(locale), join(locale, 'manage.html')), locale);
	}
	return [
		`Dashboard pages: ${out}/<en-US|de|ja>/*.html (${pages.length + 1} per language)`,
		`Manage page (manage.html): the admin set default-days to 7 and added an alert through its forms; saved with the outcome line`,
	].join('\n');
}

async function logInEveryone(site: DashboardSite): Promise<Record<DemoPage['who'], Visitor>> {
	const visitors = {
		member: new Visitor(site.webUrl),
		admin: new Visitor(site.webUrl),
		outsider: new Visitor(site.webUrl),
		nobody: new Visitor(site.webUrl),
	};
	for (const who of ['member', 'admin', 'outsider'] as const) {
		site.sandbox.setOAuthUser(WEB_PEOPLE[who]);
		await visitors[who].logIn();
	}
	return visitors;
}

/** The admin's POST from the server page; answers the public page's path. */
async function turnOnPublicPage(site: DashboardSite, admin: Visitor): Promise<string> {
	await admin.post(`/servers/${site.guildId}/public`, { enabled: 'on' });
	const page = await (await admin.get(`/servers/${site.guildId}`)).text();
	const link = /id="public-link" href="([^"]+)"/u.exec(page)?.[1];
	if (!link) throw new Error('the server page shows no public link');
	return new URL(link).pathname;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	const out = resolve('demo-output', 'web');
	const stack = await startWebStack({ guildName: 'Pixel Community' });
	try {
		console.log(await writeDashboardPages(stack, out));
	} finally {
		await stack.close();
	}
	console.log(await screenshotDashboardPages(await openScreenshotTab(), out));
	process.exit(0);
}
