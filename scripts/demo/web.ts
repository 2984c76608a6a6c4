// The dashboard part of the demo: a member and an admin log in through the stand-in's OAuth2 and the pages
// they see are written to demo-output/web/<locale>/ (HTML that opens offline, its scripts and stylesheet copied
// beside it), with screenshots when a Chromium is installed. Call runWebDemo() from the demo, or run this file.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chartJsPath } from '../../src/web/static-files.js';
import { startWebStack, WEB_PEOPLE, type WebStack } from './web-stack.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
const LOCALES = ['en-US', 'de', 'ja'] as const;
const PHONE = { width: 390, height: 844 };

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

	async post(path: string, fields: Record<string, string>): Promise<Response> {
		const response = await fetch(`${this.origin}${path}`, {
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
	copyFileSync(chartJsPath(), join(target, 'chart.umd.min.js'));
	for (const name of ['dashboard.js', 'dashboard.css'])
		copyFileSync(resolve('src/web/static', name), join(target, name));
}

export async function runWebDemo(options: { outputDir?: string; log?: (line: string) => void } = {}): Promise<void> {
	const out = options.outputDir ?? resolve('demo-output', 'web');
	const say = options.log ?? ((line: string) => console.log(line));
	const stack = await startWebStack({ guildName: 'Pixel Community' });
	try {
		mkdirSync(out, { recursive: true });
		copyStatic(out);
		const visitors = await logInEveryone(stack);
		const publicPath = await turnOnPublicPage(stack, visitors.admin);
		const pages: DemoPage[] = [
			{ file: 'index-logged-out', path: '/', who: 'nobody' },
			{ file: 'index', path: '/', who: 'member' },
			{ file: 'me', path: '/me', who: 'member' },
			{ file: 'server-90-days-joins', path: `/servers/${stack.guildId}?days=90&metric=joins`, who: 'member' },
			{ file: 'server-admin', path: `/servers/${stack.guildId}`, who: 'admin' },
			{ file: 'server-refused', path: `/servers/${stack.guildId}`, who: 'outsider' },
			{ file: 'public', path: publicPath, who: 'nobody' },
		];
		for (const locale of LOCALES) {
			const dir = join(out, locale);
			mkdirSync(dir, { recursive: true });
			for (const page of pages) {
				const joiner = page.path.includes('?') ? '&' : '?';
				const response = await visitors[page.who].get(`${page.path}${joiner}lang=${locale}`);
				const html = (await response.text()).replaceAll('"/static/', '"../static/');
				writeFileSync(join(dir, `${page.file}.html`), html);
			}
		}
		say(`Dashboard pages: ${out}/<en-US|de|ja>/*.html (${pages.length} per language)`);
		if (!existsSync(CHROMIUM_PATH)) {
			say(
				`Dashboard screenshots: no Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium fonts-noto-cjk) and run npm run demo again.`,
			);
			return;
		}
		const shots = await takeScreenshots(stack, visitors, pages, out);
		say(`Dashboard screenshots: ${shots} PNGs in ${out}/<locale>/, phone-sized ones named *-phone.png`);
	} finally {
		await stack.close();
	}
}

async function logInEveryone(stack: WebStack): Promise<Record<DemoPage['who'], Visitor>> {
	const visitors = {
		member: new Visitor(stack.webUrl),
		admin: new Visitor(stack.webUrl),
		outsider: new Visitor(stack.webUrl),
		nobody: new Visitor(stack.webUrl),
	};
	for (const who of ['member', 'admin', 'outsider'] as const) {
		stack.sandbox.setOAuthUser(WEB_PEOPLE[who]);
		await visitors[who].logIn();
	}
	return visitors;
}

/** The admin's POST from the server page; answers the public page's path. */
async function turnOnPublicPage(stack: WebStack, admin: Visitor): Promise<string> {
	await admin.post(`/servers/${stack.guildId}/public`, { enabled: 'on' });
	const page = await (await admin.get(`/servers/${stack.guildId}`)).text();
	const link = /id="public-link" href="([^"]+)"/u.exec(page)?.[1];
	if (!link) throw new Error('the server page shows no public link');
	return new URL(link).pathname;
}

async function takeScreenshots(
	stack: WebStack,
	visitors: Record<DemoPage['who'], Visitor>,
	pages: DemoPage[],
	out: string,
): Promise<number> {
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
	let count = 0;
	try {
		for (const who of ['member', 'admin', 'outsider', 'nobody'] as const) {
			for (const viewport of [{ width: 1100, height: 900 }, PHONE]) {
				const context = await browser.newContext({ viewport });
				if (who !== 'nobody') {
					await context.addCookies([{ ...visitors[who].sessionCookie(), url: stack.webUrl }]);
				}
				const tab = await context.newPage();
				for (const page of pages.filter((candidate) => candidate.who === who)) {
					for (const locale of LOCALES) {
						const joiner = page.path.includes('?') ? '&' : '?';
						await tab.goto(`${stack.webUrl}${page.path}${joiner}lang=${locale}`);
						if ((await tab.locator('canvas#chart').count()) > 0) {
							await tab.waitForSelector('canvas#chart[data-drawn="true"]');
						}
						const suffix = viewport === PHONE ? '-phone' : '';
						await tab.screenshot({
							path: join(out, locale, `${page.file}${suffix}.png`),
							fullPage: viewport !== PHONE,
						});
						count += 1;
					}
				}
				await context.close();
			}
		}
	} finally {
		await browser.close();
	}
	return count;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
	await runWebDemo();
	process.exit(0);
}
