import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary directory, removed by the returned cleanup. */
export function makeTempDir(prefix: string): { dir: string; cleanup: () => void } {
	const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
	return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RawResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** One HTTP request on its own connection, with headers sent exactly as given (no client defaults added). */
export function sendRequest(
	baseUrl: string,
	options: { method?: string; path?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const req = request(
			`${baseUrl}${options.path ?? '/api/v1/stats'}`,
			{ method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
				);
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end();
	});
}

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
