import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { DiscordAPIError } from 'discord.js';
import { createLogger, lazyChild } from '../src/logger.js';

function capture() {
	const lines: string[] = [];
	const stream = new Writable({
		write(chunk: Buffer, _encoding, done) {
			lines.push(chunk.toString());
			done();
		},
	});
	return { log: createLogger('info', stream), text: () => lines.join('') };
}

describe('logger', () => {
	it('keeps the interaction token and the reply body of a Discord error out of the log', () => {
		const token = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5_secret-interaction-token';
		const error = new DiscordAPIError(
			{ code: 50035, message: 'Invalid Form Body' },
			50035,
			400,
			'PATCH',
			`http://127.0.0.1:1/api/v10/webhooks/111/${token}/messages/%40original`,
			{ body: { content: 'the reply' } },
		);
		const { log, text } = capture();
		log.error({ err: error, incidentId: 'abcd1234' }, 'interaction failed unexpectedly');
		const line = text();
		assert.match(line, /Invalid Form Body/);
		assert.match(line, /"code":50035/);
		assert.ok(!line.includes(token), 'no token');
		assert.ok(!line.includes('the reply'), 'no request body');
	});

	it('censors fields named like secrets', () => {
		const { log, text } = capture();
		log.info({ apiKey: 'ask_visible', nested: { token: 'tok_visible' }, authorization: 'Bearer x' }, 'oops');
		assert.ok(!/ask_visible|tok_visible|Bearer x/.test(text()));
		assert.match(text(), /\[redacted\]/);
	});

	it('a lazy child builds its bindings only when it writes a line at an enabled level, once, redacted', () => {
		const { log, text } = capture();
		let built = 0;
		const child = lazyChild(log, () => {
			built += 1;
			return { requestId: 'r1', apiKey: 'ask_bound_visible' };
		});
		child.debug({ ms: 1 }, 'below the level');
		assert.equal(built, 0, 'nothing written, nothing built');
		assert.equal(text(), '');
		child.info({ ms: 2 }, 'first');
		child.warn('second');
		assert.equal(built, 1);
		const lines = text()
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, unknown>);
		assert.deepEqual(
			lines.map((line) => [line.msg, line.requestId]),
			[
				['first', 'r1'],
				['second', 'r1'],
			],
		);
		assert.ok(!text().includes('ask_bound_visible'), 'bindings are redacted too');
		assert.equal(child.child({ part: 'x' }).isLevelEnabled('info'), true);
	});
});
