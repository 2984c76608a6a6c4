import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BotContext } from '../../src/discord/context.js';
import { startHistorySampler } from '../../src/app/background-jobs.js';
import { listLinkedKeys } from '../../src/links/list-linked-keys.js';
import { createLinkStore } from '../../src/links/link-store.js';
import { openStores } from '../../src/store/open-stores.js';

test('listLinkedKeys yields every readable member and server link, skipping what no secret opens', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'linked-keys-'));
	const stores = await openStores(`sqlite://${join(dir, 'bot.sqlite')}`);
	try {
		const verifyKey = async () => ({ accountName: 'acme' });
		const secret = randomBytes(32);
		const links = createLinkStore({ keyv: stores.links, secret, verifyKey });
		const stranger = createLinkStore({ keyv: stores.links, secret: randomBytes(32), verifyKey });
		await links.linkUser('1', 'user-key-aaaaaaaaaaaaaaaa');
		await links.linkServer('2', 'server-key-bbbbbbbbbbbbbbbb', '1');
		await stranger.linkUser('3', 'sealed-elsewhere-cccccccccc');
		await stores.links.set('garbage', { not: 'a link' });
		const listed: { linkKey: string; apiKey: string }[] = [];
		for await (const entry of listLinkedKeys(stores, links)) listed.push(entry);
		assert.deepEqual(
			listed.sort((a, b) => a.linkKey.localeCompare(b.linkKey)),
			[
				{ linkKey: 'guild:2', apiKey: 'server-key-bbbbbbbbbbbbbbbb' },
				{ linkKey: 'user:1', apiKey: 'user-key-aaaaaaaaaaaaaaaa' },
			],
		);
	} finally {
		await stores.close();
		rmSync(dir, { recursive: true, force: true });
	}
});

test('HISTORY_SAMPLING=off starts no sampler', () => {
	const ctx = { config: { historySampling: false } } as unknown as BotContext;
	assert.equal(startHistorySampler(ctx), null);
});
