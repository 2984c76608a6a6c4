// The service's CLI as a child process, as a host runs it. Kept apart from support.ts so that a test which only
// needs a temporary directory or a raw request starts no process (scripts/run-tests.mjs --quick tells them apart
// by what they import).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', 'src/service/service-cli.ts'];

/** Runs the service CLI as a child process and resolves with its exit code and output (never rejects on exit code). */
export function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(process.execPath, [...CLI, ...args], { cwd: REPO_ROOT, timeout: 60_000 }, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
			resolve({ code, stdout, stderr });
		});
	});
}

/** Starts `serve` as a child process and resolves with its base URL once it prints one. */
export function startCliServer(args: string[]): Promise<{ child: ChildProcess; url: string }> {
	const child = spawn(process.execPath, [...CLI, 'serve', ...args], {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	return new Promise((resolve, reject) => {
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => {
			output += chunk.toString('utf8');
			const url = /http:\/\/[\d.]+:\d+/.exec(output)?.[0];
			if (url) resolve({ child, url });
		});
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
		child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
	});
}

/** Resolves with the exit code once the child has exited. */
export function waitForExit(child: ChildProcess): Promise<number | null> {
	if (child.exitCode !== null) return Promise.resolve(child.exitCode);
	return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
