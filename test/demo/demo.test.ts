// `npm run demo` end to end, as a newcomer runs it: every language's flows, the dashboard's pages (the manage page
// after the admin's changes among them) and, with a Chromium installed, its screenshots; a line per language, exit 0,
// and no key in what it prints or in the manage page.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, test } from 'node:test';
import { LOCALES } from '../../src/i18n/index.js';
import { demoRange, RANGE_DEMO_LOCALES } from '../../scripts/demo/range.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const out = mkdtempSync(join(tmpdir(), 'demo-output-'));
after(() => rmSync(out, { recursive: true, force: true }));

test('npm run demo plays every language, writes the dashboard pages and screenshots, and exits 0', async () => {
	const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
		cwd: ROOT,
		env: { ...process.env, DEMO_OUTPUT_DIR: out },
		timeout: 120_000,
	});
	for (const locale of LOCALES) {
		// The chosen date range is one more step, with its chart, in English and Japanese.
		const ranged = RANGE_DEMO_LOCALES.includes(locale) ? 1 : 0;
		// Two notes added and listed: three replies more, in every language.
		const replyCount = 43 + ranged;
		assert.match(stdout, new RegExp(`^${locale}: ${replyCount} replies, ${13 + ranged} charts -> `, 'mu'), locale);
		assert.ok(existsSync(join(out, locale, 'index.html')), `${locale}/index.html`);
		assert.equal(readdirSync(join(out, locale, 'replies')).length, replyCount);
		// /privacy show, and /privacy export's file: the member's records, never a key.
		const replies = readdirSync(join(out, locale, 'replies'));
		assert.ok(
			replies.some((name) => name.includes('what-the-bot-holds-about-you')),
			`${locale} /privacy show`,
		);
		const exported = readdirSync(join(out, locale, 'files')).find((name) => /adstats-my-data-.*\.json$/u.test(name));
		assert.ok(exported, `${locale} the export file`);
		const data = JSON.parse(readFileSync(join(out, locale, 'files', exported), 'utf8')) as {
			records: { kind: string }[];
		};
		assert.ok(
			data.records.some((record) => record.kind === 'link'),
			`${locale} the export holds the link`,
		);
		assert.doesNotMatch(JSON.stringify(data), /ask_[0-9A-Za-z]{8,}/u, `${locale} no key in the export`);
		// A board: its first post and the same message edited, one chart each.
		const boardPosts = readdirSync(join(out, locale, 'replies')).filter((name) =>
			/board-(its-first|the-same)/u.test(name),
		);
		assert.equal(boardPosts.length, 2, `${locale} board posts`);
	}
	// The weekly digest as the member receives it, in their language.
	for (const [locale, title] of [
		['en-US', 'Your week in figures'],
		['ja', '今週の数値'],
	]) {
		const dm = readdirSync(join(out, locale!, 'replies')).find((file) =>
			file.includes('weekly-digest-the-direct-message'),
		);
		assert.ok(dm, `${locale} digest DM`);
		assert.match(readFileSync(join(out, locale!, 'replies', dm), 'utf8'), new RegExp(`"title": "${title}"`, 'u'));
	}
	assert.match(stdout, /^Done: 346 replies in 8 languages, 106 chart PNGs in [\d.]+ s/mu);
	// The chosen range in en and ja: its chart, its first and last day named, compared with the days before.
	for (const [locale, compared] of [
		['en-US', 'against as many days before'],
		['ja', 'とその直前の同じ日数の比較'],
	] as const) {
		const file = readdirSync(join(out, locale, 'replies')).find((name) => name.includes('a-chosen-date-range'));
		assert.ok(file, `${locale} range step`);
		const reply = readFileSync(join(out, locale, 'replies', file), 'utf8');
		const { from, to } = demoRange(Date.now());
		assert.ok(reply.includes(`${from}`) && reply.includes(`${to}`), `${locale} names the range`);
		assert.ok(reply.includes(compared), `${locale} compares it`);
		assert.ok(
			readdirSync(join(out, locale, 'files')).some((name) => name.endsWith(`stats-${from}-${to}.png`)),
			`${locale} range chart`,
		);
	}
	// Two notes on the server's charts, in en and ja: listed by /note list, drawn on the /stats scope:server days:7
	// chart that follows them.
	for (const [locale, texts] of [
		['en-US', ['Campaign A started', 'Newsletter sent']],
		['ja', ['キャンペーンA開始', 'ニュースレター送信']],
	] as const) {
		const list = readdirSync(join(out, locale, 'replies')).find((file) => file.includes('the-server-s-notes'));
		assert.ok(list, `${locale} /note list`);
		const listed = readFileSync(join(out, locale, 'replies', list), 'utf8');
		for (const text of texts) assert.ok(listed.includes(text), `${locale} lists ${text}`);
	}
	// The server's monthly goal: in /goal show and as a field of /stats scope:server, in each language's words.
	for (const [locale, name] of [
		['en-US', 'Goal: sends this month'],
		['ja', '目標: 今月の送信数'],
	]) {
		const stats = readdirSync(join(out, locale!, 'replies')).find((file) => file.includes('the-server-s-stats'));
		assert.match(readFileSync(join(out, locale!, 'replies', stats!), 'utf8'), new RegExp(`"name": "${name}"`, 'u'));
		assert.ok(readdirSync(join(out, locale!, 'replies')).some((file) => file.includes('the-server-s-goals')));
	}
	for (const locale of ['en-US', 'de', 'ja']) {
		for (const page of ['index', 'me', 'server-admin', 'server-refused', 'public', 'manage', 'privacy']) {
			assert.match(readFileSync(join(out, 'web', locale, `${page}.html`), 'utf8'), /^<!doctype html>/iu, page);
		}
		// The admin's changes through the forms, and the line that says what the last one did.
		assert.match(
			readFileSync(join(out, 'web', locale, 'server-admin.html'), 'utf8'),
			/<section class="goals"[\s\S]*<progress value="\d+(\.\d+)?" max="5000"/u,
			`${locale} the goal's bar`,
		);
		const manage = readFileSync(join(out, 'web', locale, 'manage.html'), 'utf8');
		assert.match(manage, /<p class="outcome" role="status">/u, `${locale} outcome line`);
		assert.match(manage, /<option value="7" selected>/u, `${locale} default-days`);
		assert.match(manage, /<span id="alerts-[^"]+">/u, `${locale} the new alert`);
		// A key is shown by a hint of four characters: no key, nor anything as long as one, is on the page.
		assert.doesNotMatch(manage, /ask_[0-9A-Za-z]{8,}|[A-Za-z0-9_-]{32,}/u, `${locale} manage page holds no key`);
	}
	assert.match(stdout, /^Manage page \(manage\.html\): the admin set default-days to 7 and added an alert/mu);
	// The public page's embeds: the badge and the chart in both themes, as another site fetches them.
	assert.match(stdout, /^Embeds: .*badge\.svg, chart-light\.png, chart-dark\.png/mu);
	assert.match(readFileSync(join(out, 'web', 'embeds', 'badge.svg'), 'utf8'), /^<svg xmlns="http:\/\/www\.w3\.org/u);
	for (const file of ['chart-light.png', 'chart-dark.png']) {
		assert.deepEqual(readFileSync(join(out, 'web', 'embeds', file)).subarray(0, 8), PNG_SIGNATURE, file);
	}
	if (/^Dashboard screenshots: no Chromium/mu.test(stdout)) {
		assert.notEqual(process.env.CI, 'true', 'CI installs Chromium');
	} else {
		assert.match(stdout, /^Dashboard screenshots: 5 PNGs/mu);
		for (const file of [
			'en-US/server-admin.png',
			'ja/server-admin.png',
			'en-US/server-admin-phone.png',
			'en-US/manage-phone.png',
			'ja/manage-phone.png',
		]) {
			assert.deepEqual(readFileSync(join(out, 'web', file)).subarray(0, 8), PNG_SIGNATURE, file);
		}
	}
	// The demo's keys are shown only by their last four characters.
	const keys = readdirSync(join(out, 'en-US', 'replies'))
		.map((name) => readFileSync(join(out, 'en-US', 'replies', name), 'utf8'))
		.join('\n');
	assert.doesNotMatch(stdout + keys, /[A-Za-z0-9_-]{32,}/u);
});
