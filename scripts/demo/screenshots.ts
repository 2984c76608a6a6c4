// The dashboard's screenshots for the demo, in Debian's Chromium when it is installed (never a browser download).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';

/**
 * Debian's headless shell (`chromium-headless-shell`) starts and draws in half the time of the full browser, which
 * works too; CHROMIUM_PATH picks another.
 */
const CHROMIUM_PATH =
	process.env.CHROMIUM_PATH ??
	['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
	'/usr/bin/chromium';

/** Without these, Chromium as root refuses to start or keeps calling hosts this machine cannot reach. */
export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
// Tall enough for the totals and the chart; the whole page (the daily table below) would cost a second more.
const DESKTOP = { width: 1100, height: 1240 };
const PHONE = { width: 390, height: 844 };

interface Screenshot {
	/** A page writeDashboardPages() wrote, by file name. */
	page: string;
	locale: string;
	phone?: boolean;
	/** The page draws a chart, which must be there before the shot. */
	chart?: boolean;
	/** The whole page, not only the window's height: to see every section's form at phone width. */
	fullPage?: boolean;
}

/**
 * The admin's server page (chart, table, public link) on a desktop in English and Japanese (CJK type) and on a
 * phone, and the manage page whole on a phone in both (its forms are where a narrow window clips or wraps). A
 * screenshot costs Chromium a few hundred milliseconds of both cores, so the demo takes these five; the HTML of
 * every page in every language is written beside them, and opens offline.
 */
const SCREENSHOTS: Screenshot[] = [
	{ page: 'server-admin', locale: 'en-US', chart: true },
	{ page: 'server-admin', locale: 'ja', chart: true },
	{ page: 'server-admin', locale: 'en-US', phone: true, chart: true },
	{ page: 'manage', locale: 'en-US', phone: true, fullPage: true },
	{ page: 'manage', locale: 'ja', phone: true, fullPage: true },
];

/** A tab in Debian's Chromium for the screenshots, or null when Chromium is not installed. */
export interface ScreenshotTab {
	page: Page;
	close(): Promise<void>;
}

export async function openScreenshotTab(): Promise<ScreenshotTab | null> {
	if (!existsSync(CHROMIUM_PATH)) return null;
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
	try {
		return { page: await browser.newPage({ viewport: DESKTOP }), close: async () => browser.close() };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/**
 * Screenshots of the pages writeDashboardPages() wrote (file:// URLs), as a reader opens them: the dashboard does
 * no work for them, and they show that the saved pages draw their charts offline. `tab` is closed afterwards;
 * without one, answers how to get them.
 */
export async function screenshotDashboardPages(tab: ScreenshotTab | null, out: string): Promise<string> {
	if (!tab) {
		return `Dashboard screenshots: no Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium-headless-shell fonts-noto-cjk) and run npm run demo again.`;
	}
	try {
		for (const shot of SCREENSHOTS) {
			await tab.page.setViewportSize(shot.phone ? PHONE : DESKTOP);
			await tab.page.goto(pathToFileURL(join(out, shot.locale, `${shot.page}.html`)).href);
			// The chart is drawn without animation by the time the page has loaded (animation: false).
			const drawn = 'document.querySelector("canvas#chart[data-drawn]") !== null';
			if (shot.chart && (await tab.page.evaluate(drawn)) !== true) {
				throw new Error(`the chart of ${shot.locale}/${shot.page}.html was not drawn`);
			}
			await tab.page.screenshot({
				path: join(out, shot.locale, `${shot.page}${shot.phone ? '-phone' : ''}.png`),
				fullPage: shot.fullPage ?? false,
			});
		}
	} finally {
		await tab.close();
	}
	return `Dashboard screenshots: ${SCREENSHOTS.length} PNGs in ${out}/<en-US|ja>/, the phone-sized ones named *-phone.png (manage-phone.png: the manage page whole)`;
}
