// What the tests that start the bot as a process share. `npm start` runs `node dist/main.js` once its prestart has
// built the bundle; scripts/run-tests.mjs builds the bundle before any test runs, so these tests start what a
// host runs.
import { spawn, type ChildProcess } from 'node:child_process';
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

/** A node process started with exactly `env` (and PATH) in `cwd`: its exit code and everything it printed. */
export interface NodeProcess {
	child: ChildProcess;
	exited: Promise<number | null>;
	output(): { stdout: string; stderr: string };
}

/** Runs `node <args>` in `cwd` with exactly `env`, collecting its output. */
export function runNode(args: string[], env: Record<string, string>, cwd: string): NodeProcess {
	const child = spawn(process.execPath, args, {
		cwd,
		env: { PATH: process.env.PATH ?? '', ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, exited, output: () => ({ stdout, stderr }) };
}

/** Waits for a dashboard process's /healthz to answer 200; throws with its output when it exits or 30 s pass. */
export async function waitForHealth(url: string, running: NodeProcess): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		if (running.child.exitCode !== null) break;
		const answer = await fetch(`${url}/healthz`).catch(() => null);
		if (answer?.status === 200) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`no dashboard at ${url}: ${JSON.stringify(running.output())}`);
}
