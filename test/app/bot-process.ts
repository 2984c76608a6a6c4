// What the tests that start the bot as a process share. `npm start` runs `node dist/main.js` once its prestart has
// built the bundle; scripts/run-tests.mjs builds the bundle before any test runs, so these tests start what a
// host runs.
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const BUNDLED_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** The arguments after `node` that start the bot as `npm start` does. */
export function startCommandArgs(): string[] {
	if (!existsSync(BUNDLED_MAIN)) throw new Error(`no ${BUNDLED_MAIN}: run npm run build (npm test builds it)`);
	return [BUNDLED_MAIN];
}

/** A loopback port free a moment ago, for a process to listen on. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/** Polls `check` every 50 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
