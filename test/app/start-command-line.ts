// What `npm start` runs once its prestart has built the bundle: `node dist/main.js`. scripts/run-tests.mjs builds
// the bundle before any test runs, so the tests that start the bot as a process start what a host runs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BUNDLED_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** The arguments after `node` that start the bot as `npm start` does. */
export function startCommandArgs(): string[] {
	if (!existsSync(BUNDLED_MAIN)) throw new Error(`no ${BUNDLED_MAIN}: run npm run build (npm test builds it)`);
	return [BUNDLED_MAIN];
}
