import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CATALOGUE } from '../../src/i18n/index.js';
import { flatten, PLURAL_KEY } from './catalogue-support.js';

/** Where the product's code lives: everything a member or host can meet goes through these folders. */
const SOURCE_DIRS = ['src', 'commands', 'scripts'];
const SOURCE_FILE = /\.(ts|mts|mjs|js)$/u;

function sourceFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
		return SOURCE_FILE.test(entry.name) ? [path] : [];
	});
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** Catalogue keys by base name: `embed.age.days_one` and `embed.age.days_other` are `embed.age.days` to code. */
const KEYS = [...new Set([...flatten(CATALOGUE['en-US']).keys()].map((key) => PLURAL_KEY.exec(key)?.[1] ?? key))];
const GROUPS = Object.keys(CATALOGUE['en-US']);

/**
 * How code names keys: a quoted literal (`'embed.footer'`, `"…"`, or a template without placeholders), or a
 * template with placeholders such as `chart.title.${metric}` or `commands.${command}.options.days.description`,
 * read as a pattern in which each placeholder stands for exactly one segment of the key.
 */
function referencesIn(source: string): { literals: Set<string>; patterns: RegExp[] } {
	const literals = new Set<string>();
	const patterns: RegExp[] = [];
	const keyLike = new RegExp(`^(?:${GROUPS.map(escapeRegExp).join('|')})\\.`, 'u');
	for (const [, text = ''] of source.matchAll(/'([^'\n]+)'/gu)) if (keyLike.test(text)) literals.add(text);
	for (const [, text = ''] of source.matchAll(/"([^"\n]+)"/gu)) if (keyLike.test(text)) literals.add(text);
	for (const [, text = ''] of source.matchAll(/`([^`]*)`/gu)) {
		if (!keyLike.test(text)) continue;
		const parts = text.split(/\$\{[^}]*\}/u);
		if (parts.length === 1) {
			literals.add(text);
			continue;
		}
		// A template is a key pattern only when its literal parts are key characters.
		if (parts.some((part) => !/^[\w.]*$/u.test(part))) continue;
		patterns.push(new RegExp(`^${parts.map(escapeRegExp).join('[^.]+')}$`, 'u'));
	}
	return { literals, patterns };
}

/** Block comments and whole-line comments: a key named in a doc comment is not a use of it. */
function withoutComments(source: string): string {
	return source.replace(/\/\*[\s\S]*?\*\//gu, '').replace(/^\s*\/\/.*$/gmu, '');
}

function unusedKeys(files: string[]): string[] {
	const literals = new Set<string>();
	const patterns: RegExp[] = [];
	for (const file of files) {
		const found = referencesIn(withoutComments(readFileSync(file, 'utf8')));
		for (const literal of found.literals) literals.add(literal);
		patterns.push(...found.patterns);
	}
	return KEYS.filter((key) => !literals.has(key) && !patterns.some((pattern) => pattern.test(key)));
}

test('every catalogue key is used by some source file (dynamic keys included)', () => {
	const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(dir));
	assert.ok(files.length > 50, `found ${files.length} source files: run the tests from the repository root`);
	assert.deepEqual(unusedKeys(files), [], 'keys no code uses: remove them from all 8 locale files');
});

test('the check sees quoted keys and template keys, and fails on a key nothing names', () => {
	const found = referencesIn(
		[
			"t('embed.footer');",
			't("stats.sharedBy");',
			't(`chart.title.${view.metric}`);',
			'described(option, `commands.${command}.options.days.description`);',
			'log(`${prefix}-${days}d.png`);',
		].join('\n'),
	);
	assert.ok(found.literals.has('embed.footer'));
	assert.ok(found.literals.has('stats.sharedBy'));
	const matches = (key: string) => found.patterns.some((pattern) => pattern.test(key));
	assert.ok(matches('chart.title.joins'));
	assert.ok(matches('commands.export.options.days.description'));
	assert.ok(!matches('chart.title'), 'a placeholder stands for one segment, not none');
	assert.ok(!matches('chart.yAxis.joins'));
	assert.ok(!matches('commands.stats.options.scope.description'));
	assert.equal(found.patterns.length, 2, 'a template that is no key is no pattern');
	const commented = referencesIn(withoutComments("/** Called as `embed.fewerDays`. */\n// t('embed.footer')\nrun();"));
	assert.equal(commented.literals.size, 0, 'a key in a comment is not a use');
});
