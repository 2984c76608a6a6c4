// The public page's embeds (`/p/{token}/chart.png`, `/p/{token}/badge.svg`) through the dashboard app: real
// PNGs from the chart worker pool, real badges, the ETag and 304 dance, and the token checked on every request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { formatNumber, type Translate } from '../../src/i18n/index.js';
import type { ChartRenderer } from '../../src/render/chart-renderer.js';
import { createChartRenderer } from '../../src/render/create-chart-renderer.js';
import { readPngSize } from '../../src/render/png.js';
import { enablePublic } from '../../src/settings/public-page.js';
import { fetchStatsFor } from '../../src/stats/resolve-key.js';
import { createWebApp } from '../../src/web/app.js';
import { embedSnippets } from '../../src/web/public/embed-snippets.js';
import { badgeSvg } from '../../src/web/public/embeds.js';
import {
	Browser,
	createAccount,
	logIn,
	MANAGE_GUILD,
	PUBLIC_URL,
	startWebHarness,
	type WebHarness,
} from './web-harness.js';

const ADMIN = '310000000000000303';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HOSTILE_NAME = `Growth <&"'> <script>alert(1)</script>`;

let h: WebHarness;
let guildId: string;
let app: Hono;
let pool: ChartRenderer;
/** PNGs the route asked the renderer for (the renderer's own memo sits below this count). */
let draws = 0;

before(async () => {
	h = await startWebHarness();
	guildId = h.sandbox.guildIds[0]!;
	h.sandbox.setGuildName(guildId, HOSTILE_NAME);
	const managers = h.sandbox.addRole(guildId, { name: 'Managers', permissions: BigInt(MANAGE_GUILD) }).id;
	h.sandbox.setMember(guildId, ADMIN, { roles: [managers] });
	await h.services.ctx.links.linkServer(guildId, createAccount(h, 'Embed_Ads'), ADMIN);
	pool = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:1', threads: 1 });
	const counting: ChartRenderer = {
		name: pool.name,
		render: (...args) => {
			draws += 1;
			return pool.render(...args);
		},
		close: () => pool.close(),
	};
	app = createWebApp({ ...h.deps, renderer: counting }) as unknown as Hono;
});
after(async () => {
	await pool.close();
	await h.close();
});

const visitor = () => new Browser(app);

async function publicPath(): Promise<string> {
	return `/p/${await enablePublic(h.deps, guildId)}`;
}

/** Enough of an SVG to trust it: one root `<svg>` in the SVG namespace, balanced tags, no markup from a name. */
function assertSvgShape(svg: string) {
	assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*width="\d+" height="20"/u);
	assert.ok(svg.endsWith('</svg>'));
	const stack: string[] = [];
	for (const [, closing, name, selfClosing] of svg.matchAll(/<(\/?)([A-Za-z][\w:-]*)[^>]*?(\/?)>/gu)) {
		if (selfClosing) continue;
		if (closing) assert.equal(stack.pop(), name, `</${name}> closes what it opened`);
		else stack.push(name!);
	}
	assert.deepEqual(stack, [], 'every element closed');
	assert.doesNotMatch(svg, /<script|&(?![a-z]+;|#\d+;)/u, 'no script, no bare ampersand');
}

describe('chart.png', () => {
	it('answers a valid 800x400 PNG with caching headers, the same ETag twice, and 304s', async () => {
		const path = `${await publicPath()}/chart.png?days=30&theme=dark`;
		const first = await visitor().request(path);
		assert.equal(first.status, 200);
		assert.equal(first.headers.get('content-type'), 'image/png');
		assert.equal(first.headers.get('cache-control'), 'public, max-age=300');
		const etag = first.headers.get('etag')!;
		assert.match(etag, /^"[^"]+"$/u, 'a strong, quoted ETag');
		const png = Buffer.from(await first.arrayBuffer());
		assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
		assert.deepEqual(readPngSize(png), { width: 800, height: 400 });

		const second = await visitor().request(path);
		assert.equal(second.headers.get('etag'), etag);
		assert.deepEqual(Buffer.from(await second.arrayBuffer()), png);

		for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
			const again = await visitor().request(path, { headers: { 'if-none-match': ifNoneMatch } });
			assert.equal(again.status, 304, ifNoneMatch);
			assert.equal(again.headers.get('etag'), etag);
			assert.equal(again.headers.get('cache-control'), 'public, max-age=300');
			assert.equal((await again.arrayBuffer()).byteLength, 0, 'no body');
		}
		const changed = await visitor().request(path, { headers: { 'if-none-match': '"something-else"' } });
		assert.equal(changed.status, 200);
	});

	it('draws light and dark as different pictures, each with its own ETag, light by default', async () => {
		const path = await publicPath();
		const light = await visitor().request(`${path}/chart.png?days=7`);
		const dark = await visitor().request(`${path}/chart.png?days=7&theme=dark`);
		const plain = await visitor().request(`${path}/chart.png?days=7&theme=light`);
		assert.notEqual(light.headers.get('etag'), dark.headers.get('etag'));
		assert.equal(light.headers.get('etag'), plain.headers.get('etag'));
		const [lightPng, darkPng] = [Buffer.from(await light.arrayBuffer()), Buffer.from(await dark.arrayBuffer())];
		assert.ok(!lightPng.equals(darkPng));
	});

	it('draws once per ETag, for concurrent and for repeated requests', async () => {
		// A language no other test asks for: a chart (and ETag) of its own, the history here starting today.
		const path = `${await publicPath()}/chart.png?days=90&metric=sends&theme=dark&lang=ja`;
		const before = draws;
		const answers = await Promise.all(Array.from({ length: 8 }, () => visitor().request(path)));
		const etags = new Set(answers.map((answer) => answer.headers.get('etag')));
		assert.equal(etags.size, 1);
		assert.deepEqual(
			answers.map((answer) => answer.status),
			Array(8).fill(200),
		);
		for (let i = 0; i < 5; i += 1) assert.equal((await visitor().request(path)).status, 200);
		assert.equal(draws - before, 1, 'one draw for 13 requests of one ETag');
	});

	it('answers 400 for days, metric or theme it does not take', async () => {
		const path = await publicPath();
		for (const query of ['days=8', 'days=abc', 'metric=revenue', 'theme=blue', 'theme=DARK']) {
			const answer = await visitor().request(`${path}/chart.png?${query}`);
			assert.equal(answer.status, 400, query);
		}
		const theme = await (await visitor().request(`${path}/chart.png?theme=blue`)).text();
		assert.match(theme, /<code>theme<\/code> must be <code>light<\/code> or <code>dark<\/code>/u);
	});
});

describe('badge.svg', () => {
	it('answers a flat badge of sends this month by default, with caching, ETag and 304', async () => {
		const path = `${await publicPath()}/badge.svg`;
		const answer = await visitor().request(path);
		assert.equal(answer.status, 200);
		assert.equal(answer.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
		assert.equal(answer.headers.get('cache-control'), 'public, max-age=300');
		const svg = await answer.text();
		assertSvgShape(svg);
		assert.match(svg, /<title>Sends this month: [\d,]+<\/title>/u);
		const etag = answer.headers.get('etag')!;
		assert.match(etag, /^"[^"]+"$/u);
		assert.equal((await visitor().request(path)).headers.get('etag'), etag);
		for (const ifNoneMatch of [etag, `"a", "b", ${etag}`, '*']) {
			const again = await visitor().request(path, { headers: { 'if-none-match': ifNoneMatch } });
			assert.equal(again.status, 304, ifNoneMatch);
			assert.equal(again.headers.get('etag'), etag);
			assert.equal(again.headers.get('cache-control'), 'public, max-age=300');
			assert.equal(await again.text(), '');
		}
	});

	it("writes the label and the number in the server's language", async () => {
		const path = await publicPath();
		const { snapshot } = await fetchStatsFor(h.deps, { scope: 'server', userId: '', guildId });
		const all = snapshot.sends.allTime!;
		assert.ok(all >= 1000, 'a number with a thousands separator');
		try {
			await h.services.ctx.settings.update(guildId, { language: 'de' });
			const german = await (await visitor().request(`${path}/badge.svg?figure=sends-all`)).text();
			assert.match(
				german,
				new RegExp(`<title>Sendungen gesamt: ${formatNumber('de', all).replace('.', '\\.')}</title>`, 'u'),
			);
			assert.match(formatNumber('de', all), /^\d{1,3}(\.\d{3})+$/u);
			await h.services.ctx.settings.update(guildId, { language: 'en-US' });
			const english = await (await visitor().request(`${path}/badge.svg?figure=sends-all`)).text();
			assert.ok(english.includes(`<title>Sends all time: ${formatNumber('en-US', all)}</title>`));
			assert.match(formatNumber('en-US', all), /^\d{1,3}(,\d{3})+$/u);
		} finally {
			await h.services.ctx.settings.update(guildId, { language: 'auto' });
		}
	});

	it('answers 400 for a figure it does not show', async () => {
		const path = await publicPath();
		for (const figure of ['revenue', 'sends', '<script>']) {
			const answer = await visitor().request(`${path}/badge.svg?figure=${encodeURIComponent(figure)}`);
			assert.equal(answer.status, 400, figure);
			assert.doesNotMatch(await answer.text(), /<script>/u);
		}
	});

	it('escapes every text it draws, and holds no server name', async () => {
		const svg = badgeSvg(`Label <&"'> <script>`, `1 <b>&`);
		assertSvgShape(svg);
		assert.ok(
			svg.includes('Label &lt;&amp;&quot;&apos;&gt; &lt;script&gt;') ||
				svg.includes('Label &lt;&amp;&quot;&#39;&gt; &lt;script&gt;'),
		);
		const served = await (await visitor().request(`${await publicPath()}/badge.svg?figure=joins-week`)).text();
		assertSvgShape(served);
		assert.ok(!served.includes('<script>') && !served.includes(`<&"'>`), 'the hostile server name is nowhere in clear');
	});
});

describe('the token', () => {
	it('404s both embeds right after the admin turns the public page off', async () => {
		const admin = new Browser(app);
		assert.equal((await logIn(h, admin, ADMIN)).status, 302);
		assert.equal((await admin.post(`/servers/${guildId}/public`, { enabled: 'on' })).status, 303);
		const page = await (await admin.request(`/servers/${guildId}`)).text();
		const path = new URL(/id="public-link" href="([^"]+)"/u.exec(page)![1]!).pathname;
		const chart = await visitor().request(`${path}/chart.png`);
		const badge = await visitor().request(`${path}/badge.svg`);
		assert.equal(chart.status, 200);
		assert.equal(badge.status, 200);
		assert.equal((await admin.post(`/servers/${guildId}/public`, { enabled: 'off' })).status, 303);
		for (const embed of ['chart.png', 'badge.svg']) {
			const gone = await visitor().request(`${path}/${embed}`);
			assert.equal(gone.status, 404, embed);
			const cached = await visitor().request(`${path}/${embed}`, {
				headers: { 'if-none-match': chart.headers.get('etag')! },
			});
			assert.equal(cached.status, 404, `${embed}: no 304 either`);
		}
	});

	it('404s an unknown or malformed token', async () => {
		for (const path of ['/p/AAAAAAAAAAAAAAAAAAAAAA/chart.png', '/p/%3Cscript%3E/badge.svg']) {
			assert.equal((await visitor().request(path)).status, 404, path);
		}
	});
});

describe('the snippets', () => {
	it('are on the public page and the manage page, escaped, with WEB_PUBLIC_URL', async () => {
		const path = await publicPath();
		const page = await (await visitor().request(path)).text();
		const badgeUrl = `${PUBLIC_URL}${path}/badge.svg?figure=sends-month`;
		assert.ok(page.includes(`&lt;img src=&quot;${badgeUrl}&quot; alt=&quot;Sends this month&quot;&gt;`), 'HTML');
		assert.ok(page.includes(`![Sends this month](${badgeUrl})`), 'Markdown');
		assert.ok(page.includes(`${PUBLIC_URL}${path}/chart.png?days=30&amp;amp;metric=sends&amp;amp;theme=light`));
		const admin = new Browser(app);
		await logIn(h, admin, ADMIN);
		const manage = await (await admin.request(`/servers/${guildId}/manage`)).text();
		assert.ok(manage.includes(`![Sends this month](${badgeUrl})`), 'on the manage page');
	});

	it('escape what they quote twice: as the HTML snippet, and again to be shown', () => {
		const hostile = (() => 'A <b>"x"</b> & [y]') as unknown as Translate;
		const shown = embedSnippets(hostile, 'https://stats.example/p/tok').text;
		assert.ok(!shown.includes('<b>'), 'no markup from a text');
		// The snippet's own escaping (&lt;b&gt;), escaped once more for the page.
		assert.ok(shown.includes('alt=&quot;A &amp;lt;b&amp;gt;&amp;quot;x&amp;quot;'), 'the HTML snippet');
		assert.ok(
			shown.includes('![A &lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; \\[y\\]](https://stats.example/p/tok/'),
			'Markdown',
		);
	});
});
