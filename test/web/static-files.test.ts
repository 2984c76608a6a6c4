// The dashboard's static files: a content-hashed name that changes with the bytes, cached for good, brotli or
// gzip by the request's Accept-Encoding (precompressed once), the plain bytes when nothing is accepted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { renderPage } from '../../src/web/layout.js';
import { html } from '../../src/web/html.js';
import {
	acceptedCodings,
	buildStaticFiles,
	chartJsPath,
	staticFiles,
	type StaticAnswer,
} from '../../src/web/static-files.js';

const CSS = Buffer.from(`body { color: #1f2328; }\n${'.row { margin: 0 auto; padding: 1rem; }\n'.repeat(40)}`);
const FOREVER = 'public, max-age=31536000, immutable';

function lastSegment(url: string): string {
	return url.slice(url.lastIndexOf('/') + 1);
}

function decoded(answer: StaticAnswer): Buffer {
	const body = Buffer.from(answer.body);
	switch (answer.headers['Content-Encoding']) {
		case 'br':
			return brotliDecompressSync(body);
		case 'gzip':
			return gunzipSync(body);
		case undefined:
			return body;
		default:
			throw new Error(`unexpected encoding ${answer.headers['Content-Encoding']}`);
	}
}

describe('static files', () => {
	it('names a file by its content: other bytes, another name, and the old name is gone', async () => {
		const before = buildStaticFiles([{ name: 'dashboard.css', body: CSS }]);
		const after = buildStaticFiles([{ name: 'dashboard.css', body: Buffer.concat([CSS, Buffer.from('a{}')]) }]);
		const oldUrl = before.url('dashboard.css');
		const newUrl = after.url('dashboard.css');
		assert.match(oldUrl, /^\/static\/dashboard\.[0-9a-f]{12}\.css$/u);
		assert.notEqual(newUrl, oldUrl);
		assert.equal(buildStaticFiles([{ name: 'dashboard.css', body: CSS }]).url('dashboard.css'), oldUrl, 'stable');
		assert.ok(await after.answer(lastSegment(newUrl), undefined));
		assert.equal(await after.answer(lastSegment(oldUrl), 'br'), null, 'an old hash is not found');
		assert.equal(await after.answer('dashboard.0123456789ab.css', 'br'), null, 'nor an unknown one');
		assert.equal(await after.answer('other.css', 'br'), null);
	});

	it('sends brotli or gzip that decompress to the file, cached for good and varying by Accept-Encoding', async () => {
		const files = buildStaticFiles([{ name: 'dashboard.css', body: CSS }]);
		const file = lastSegment(files.url('dashboard.css'));
		for (const [accept, coding] of [
			['gzip, deflate, br', 'br'],
			['br', 'br'],
			['gzip', 'gzip'],
			['br;q=0.5, gzip', 'gzip'],
			['gzip;q=0, *', 'br'],
			['*', 'br'],
		] as const) {
			const answer = (await files.answer(file, accept))!;
			assert.equal(answer.headers['Content-Encoding'], coding, accept);
			assert.ok(answer.body.length < CSS.length, `${accept}: smaller`);
			assert.deepEqual(decoded(answer), CSS, accept);
			assert.equal(answer.headers['Cache-Control'], FOREVER);
			assert.equal(answer.headers.Vary, 'Accept-Encoding');
			assert.equal(answer.headers['Content-Type'], 'text/css; charset=utf-8');
		}
	});

	it('sends the plain bytes when no encoding of ours is accepted', async () => {
		const files = buildStaticFiles([{ name: 'dashboard.js', body: Buffer.from('"use strict";\n'.repeat(50)) }]);
		const file = lastSegment(files.url('dashboard.js'));
		for (const accept of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0']) {
			const answer = (await files.answer(file, accept))!;
			assert.equal(answer.headers['Content-Encoding'], undefined, String(accept));
			assert.equal(Buffer.from(answer.body).toString(), '"use strict";\n'.repeat(50));
			assert.equal(answer.headers['Cache-Control'], FOREVER);
			assert.equal(answer.headers.Vary, 'Accept-Encoding');
			assert.equal(answer.headers['Content-Type'], 'text/javascript; charset=utf-8');
		}
	});

	it('sends a file that compression would not shrink as it is', async () => {
		const files = buildStaticFiles([{ name: 'tiny.js', body: Buffer.from('1') }]);
		const answer = (await files.answer(lastSegment(files.url('tiny.js')), 'br, gzip'))!;
		assert.equal(answer.headers['Content-Encoding'], undefined);
		assert.equal(Buffer.from(answer.body).toString(), '1');
	});

	it('keeps the plain name for tools, asked again each time', async () => {
		const files = buildStaticFiles([{ name: 'dashboard.css', body: CSS }]);
		const answer = (await files.answer('dashboard.css', 'gzip'))!;
		assert.equal(answer.headers['Cache-Control'], 'no-cache');
		assert.deepEqual(decoded(answer), CSS);
	});

	it('reads the Accept-Encoding header by its weights', () => {
		assert.deepEqual(acceptedCodings('gzip, deflate, br, zstd'), ['br', 'gzip']);
		assert.deepEqual(acceptedCodings('gzip;q=1.0, br;q=0.8'), ['gzip', 'br']);
		assert.deepEqual(acceptedCodings('x-gzip'), ['gzip']);
		assert.deepEqual(acceptedCodings('BR; Q=0.9'), ['br']);
		assert.deepEqual(acceptedCodings('br;q=abc'), []);
		assert.deepEqual(acceptedCodings('identity;q=0'), []);
	});

	it("serves the dashboard's own files and the installed chart.js, and pages link the hashed names", async () => {
		const files = staticFiles();
		const chart = files.url('chart.umd.min.js');
		assert.match(chart, /^\/static\/chart\.umd\.min\.[0-9a-f]{12}\.js$/u);
		const original = readFileSync(chartJsPath());
		const answer = (await files.answer(lastSegment(chart), 'gzip, deflate, br'))!;
		assert.equal(answer.headers['Content-Encoding'], 'br');
		assert.ok(answer.body.length < original.length / 3, `chart.js in brotli: ${answer.body.length} bytes`);
		assert.deepEqual(decoded(answer), original);
		const css = (await files.answer(lastSegment(files.url('dashboard.css')), undefined))!;
		assert.deepEqual(Buffer.from(css.body), readFileSync(join('src', 'web', 'static', 'dashboard.css')));
		assert.deepEqual(
			files.published().map((file) => file.file),
			['chart.umd.min.js', 'chartjs-plugin-annotation.min.js', 'dashboard.js', 'dashboard.css'].map((name) =>
				lastSegment(files.url(name)),
			),
		);

		const page = renderPage({ locale: 'en-US', title: 'Home', user: null }, html`<p>hi</p>`);
		assert.ok(page.includes(`<link rel="stylesheet" href="${files.url('dashboard.css')}" />`), page);
	});
});
