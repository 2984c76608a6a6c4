// What the tests that start the bot as a process share. `npm start` runs `node dist/main.js` once its prestart has
// built the bundle; scripts/run-tests.mjs builds the bundle before any test runs, so these tests start what a
// host runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const BUNDLED_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** The arguments after `node` that start the bot as `npm start` does. */
export function startCommandArgs(): string[] {
	if (!existsSync(BUNDLED_MAIN)) throw new Error(`no ${BUNDLED_MAIN}: run npm run build (npm test builds it)`);
	return [BUNDLED_MAIN];
}

/** A loopback port free a moment ago, for a process to listen on. */
export async function freePort(): Promise<number> {
	return freePorts(1);
}

/**
 * Ports handed to a child process come from below Linux's ephemeral range (32768 and up): a port that listen(0)
 * gave and then closed can be taken by any outgoing connection or another test's server before the child binds it,
 * and METRICS_PORT + 1 + i was in use for a whole test that way.
 */
const LOW_PORTS = { first: 20_000, last: 32_000 } as const;

/** Whether 127.0.0.1:`port` can be listened on now. */
async function canListen(port: number): Promise<boolean> {
	const server = createServer();
	const listening = await new Promise<boolean>((resolve) => {
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => resolve(true));
	});
	if (listening) await new Promise((resolve) => server.close(resolve));
	return listening;
}

/** The first of `count` consecutive free ports below the ephemeral range (METRICS_PORT and its children's). */
export async function freePorts(count: number): Promise<number> {
	for (let tries = 0; tries < 100; tries += 1) {
		const base = LOW_PORTS.first + Math.floor(Math.random() * (LOW_PORTS.last - LOW_PORTS.first - count));
		let free = true;
		for (let port = base; free && port < base + count; port += 1) free = await canListen(port);
		if (free) return base;
	}
	throw new Error(`no ${count} consecutive free ports between ${LOW_PORTS.first} and ${LOW_PORTS.last}`);
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
