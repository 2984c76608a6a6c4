import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Routes } from 'discord.js';
import { createDiscordClient } from '../../src/discord/client.js';
import { watchDiscordRefusals } from '../../src/discord/discord-refusals.js';
import { createLogger } from '../../src/logger.js';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';

describe('Discord refusals', () => {
	let sandbox: DiscordSandbox;
	before(async () => {
		sandbox = await startDiscordSandbox({ guildCount: 0 });
	});
	after(async () => {
		await sandbox.close();
	});

	it('are counted and logged by status, without the token', async () => {
		const lines: string[] = [];
		const log = createLogger(
			'warn',
			new Writable({
				write(chunk: Buffer, _encoding, done) {
					lines.push(chunk.toString());
					done();
				},
			}),
		);
		const client = createDiscordClient({ apiUrl: sandbox.apiUrl });
		const wrongToken = 'not-the-sandbox-token-0123456789';
		client.rest.setToken(wrongToken);
		const refusals = watchDiscordRefusals(client, log);
		await assert.rejects(client.rest.get(Routes.user('@me')));
		assert.equal(refusals.counts.get(401), 1);
		assert.match(lines.join(''), /"status":401.*"discord refused"/);
		assert.ok(!lines.join('').includes(wrongToken));
		await client.destroy();
	});
});
