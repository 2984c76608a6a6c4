import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { makeTempDir, sendRequest } from './support.js';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** Parent pid of every live process, read from /proc (Linux). */
function parentPids(): Map<number, number> {
	const parents = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// The command name may hold spaces and parentheses; the fields after its last ')' are fixed.
			const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (state !== 'Z') parents.set(Number(entry), Number(ppid));
		} catch {
			// the process ended while being read
		}
	}
	return parents;
}

function descendantsOf(pid: number): number[] {
	const parents = parentPids();
	const found: number[] = [];
	const queue = [pid];
	while (queue.length > 0) {
		const current = queue.shift() as number;
		for (const [child, parent] of parents) {
			if (parent === current) {
				found.push(child);
				queue.push(child);
			}
		}
	}
	return found;
}

const isAlive = (pid: number) => parentPids().has(pid);

describe('npm run service -- serve and signals', () => {
	const temp = makeTempDir('stats-signals');
	after(() => temp.cleanup());

	for (const signal of ['SIGTERM', 'SIGINT'] as const) {
		test(`${signal} to npm closes the listener and exits 0 within 5 s, leaving no process behind`, async () => {
			const db = join(temp.dir, `${signal}.sqlite`);
			// Its own process group, so a failing run can still be cleaned up whole.
			const npm = spawn('npm', ['run', 'service', '--', 'serve', '--port', '0', '--db', db], {
				cwd: REPO_ROOT,
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			const pid = npm.pid as number;
			const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
			try {
				const url = await new Promise<string>((resolve, reject) => {
					let output = '';
					const timer = setTimeout(() => reject(new Error(`no URL within 30 s: ${output}`)), 30_000);
					npm.stdout.on('data', (chunk: Buffer) => {
						output += chunk.toString('utf8');
						const found = /http:\/\/[\d.]+:\d+/.exec(output)?.[0];
						if (found) {
							clearTimeout(timer);
							resolve(found);
						}
					});
					npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
				});
				assert.equal((await sendRequest(url)).status, 401);
				const family = descendantsOf(pid);
				assert.ok(family.length >= 1, 'npm has a child serving');
				const signalledAt = Date.now();
				process.kill(pid, signal);
				const code = await Promise.race([
					exited,
					new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5000)),
				]);
				assert.equal(code, 0, `npm exit code after ${signal}`);
				while (family.some(isAlive) && Date.now() - signalledAt < 5000) {
					await new Promise((resolve) => setTimeout(resolve, 50));
				}
				assert.deepEqual(family.filter(isAlive), [], 'processes left behind');
				await assert.rejects(sendRequest(url), 'the listener is closed');
			} finally {
				try {
					process.kill(-pid, 'SIGKILL');
				} catch {
					// the group is already gone, as it should be
				}
			}
		});
	}
});
