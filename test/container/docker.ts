// What the container test needs of Docker on this host: whether it works, the compose command it has, and bounded
// runs of both. Docker Hub is out of reach on these machines: the base images are built locally by the shared tool
// beside the repository (../shared/tools/container-base-images.sh), which also starts dockerd.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BASE_IMAGES = ['node:20-bookworm', 'node:20-bookworm-slim', 'redis:7-bookworm'];

export interface Ran {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
}

/** Runs a command to its end, or kills it after `timeoutMs` (code null); never throws. */
export function run(
	command: string,
	args: string[],
	options: { timeoutMs: number; cwd?: string; env?: NodeJS.ProcessEnv },
): Promise<Ran> {
	const started = Date.now();
	return new Promise((resolve) => {
		let stdout = '';
		let stderr = '';
		const child = spawn(command, args, {
			cwd: options.cwd ?? ROOT,
			env: options.env ?? process.env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			resolve({ code: -1, stdout, stderr: `${stderr}${error.message}`, ms: Date.now() - started });
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr, ms: Date.now() - started });
		});
	});
}

/** A run's output for an assertion message, the end of it when long. */
export function describeRun(ran: Ran): string {
	const tail = (text: string) => (text.length > 4000 ? `…${text.slice(-4000)}` : text);
	return `exit ${ran.code} after ${ran.ms} ms\nstdout:\n${tail(ran.stdout)}\nstderr:\n${tail(ran.stderr)}`;
}

async function missingBaseImages(): Promise<string[]> {
	const found = await Promise.all(
		BASE_IMAGES.map(async (image) => (await run('docker', ['image', 'inspect', image], { timeoutMs: 30_000 })).code),
	);
	return BASE_IMAGES.filter((_image, i) => found[i] !== 0);
}

/** Why Docker cannot run the test here, or null when it can. */
async function whyUnusable(): Promise<string | null> {
	const version = await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 30_000 });
	if (version.code === -1) return 'no docker binary on PATH';
	if (version.code !== 0) return `the Docker daemon does not answer (${version.stderr.trim().split('\n')[0]})`;
	const missing = await missingBaseImages();
	if (missing.length > 0) {
		return `base images missing (${missing.join(', ')}): run bash ../shared/tools/container-base-images.sh`;
	}
	return null;
}

/** `docker compose` (v2) when the plugin is there, else the standalone `docker-compose`. */
async function composeCommand(): Promise<string[] | null> {
	if ((await run('docker', ['compose', 'version'], { timeoutMs: 30_000 })).code === 0) return ['docker', 'compose'];
	if ((await run('docker-compose', ['version'], { timeoutMs: 30_000 })).code === 0) return ['docker-compose'];
	return null;
}

export type DockerHost = { compose: string[]; unavailable: null } | { compose: null; unavailable: string };

/** Docker as the test needs it; `.ci/run` runs the base images' tool before the tests when it is there. */
export async function dockerHost(): Promise<DockerHost> {
	const reason = await whyUnusable();
	if (reason !== null) return { compose: null, unavailable: reason };
	const compose = await composeCommand();
	if (compose === null) return { compose: null, unavailable: 'neither `docker compose` nor `docker-compose` runs' };
	return { compose, unavailable: null };
}
