// Chromium from the system (Debian's `chromium`), driven by playwright-core: never a browser download.
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
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
	newContext(options?: { width?: number; height?: number; locale?: string }): Promise<BrowserContext>;
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
			}),
		close: () => browser.close(),
	};
}
