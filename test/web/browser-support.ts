// Chromium from the system (Debian's `chromium`), driven by playwright-core: never a browser download.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../scripts/demo/screenshots.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why no browser test can run here, or null when Chromium is installed. */
export function chromiumMissing(): string | null {
	return existsSync(CHROMIUM_PATH)
		? null
		: `no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium fonts-noto-cjk (or set CHROMIUM_PATH)`;
}

export interface LaunchedBrowser {
	/** A fresh context with its own cookies, as a second person on another machine. */
	newContext(options?: {
		width?: number;
		height?: number;
		locale?: string;
		/** False for a browser that runs no script at all: the page must work with forms and links alone. */
		javaScriptEnabled?: boolean;
	}): Promise<BrowserContext>;
	close(): Promise<void>;
}

/** Chromium with a fresh profile: `launch` gives every launch a new temporary user-data dir of its own. */
export async function launchChromium(): Promise<LaunchedBrowser> {
	const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
	return {
		newContext: (options = {}) =>
			browser.newContext({
				viewport: { width: options.width ?? 1100, height: options.height ?? 900 },
				locale: options.locale ?? 'en-US',
				acceptDownloads: true,
				javaScriptEnabled: options.javaScriptEnabled ?? true,
			}),
		close: () => browser.close(),
	};
}

/** One rule axe-core found broken, with the elements that break it. */
export interface AxeFinding {
	rule: string;
	impact: string;
	help: string;
	targets: string[];
}

let axeSource: string | null = null;

/**
 * axe-core's serious and critical findings on the page as it stands. The script goes in through the DevTools
 * protocol (page.evaluate), which the page's Content-Security-Policy does not govern: the page is audited as
 * served, its `script-src 'self'` in force, with no inline script tag added.
 */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
	axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
	await page.evaluate(axeSource);
	return page.evaluate(async () => {
		// Runs in the page; the project compiles without the DOM types, so the part of axe used is typed here.
		type Result = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };
		const { axe, document } = globalThis as unknown as {
			axe: { run(context: unknown, options: object): Promise<{ violations: Result[] }> };
			document: unknown;
		};
		const { violations } = await axe.run(document, { resultTypes: ['violations'] });
		return violations
			.filter((found) => found.impact === 'serious' || found.impact === 'critical')
			.map((found) => ({
				rule: found.id,
				impact: found.impact ?? '',
				help: found.help,
				targets: found.nodes.map((node) => node.target.join(' ')),
			}));
	});
}
