import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openStores } from '../../src/store/open-stores.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-close-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a closed SQLite store leaves everything in the database file, nothing in its WAL', async () => {
	// Its connections close together; without a checkpoint first, about one close in ten left the last writes in
	// the WAL, and the next open then changed the database file by moving them in.
	for (let round = 0; round < 50; round++) {
		const file = join(dir, `bot-${round}.sqlite`);
		const stores = await openStores(`sqlite://${file}`);
		await stores.links.set('user:1', { marker: `written-in-round-${round}` });
		await stores.history.set('account:a', { samples: [round] });
		await stores.close();
		const wal = `${file}-wal`;
		assert.ok(!existsSync(wal) || statSync(wal).size === 0, `round ${round}: the WAL holds nothing`);
		assert.ok(readFileSync(file).includes(`written-in-round-${round}`), `round ${round}: the file holds the write`);
	}
});
