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
