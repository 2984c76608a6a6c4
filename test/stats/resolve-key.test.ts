import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withUserKeyRead, type FetchDeps } from '../../src/stats/resolve-key.js';
import { StorageUnavailableError } from '../../src/errors.js';

function countingLinks(fail = false) {
	const reads: string[] = [];
	const links: FetchDeps['links'] = {
		getUserKey: async (userId) => {
			reads.push(`user ${userId}`);
			if (fail) throw new StorageUnavailableError();
			return { apiKey: `key of ${userId}`, info: {} as never };
		},
		getServerLink: async (guildId) => {
			reads.push(`server link ${guildId}`);
			return null;
		},
		getServerKey: async (guildId) => {
			reads.push(`server key ${guildId}`);
			return null;
		},
	};
	return { links, reads };
}

test("the member's own key is read at once, and that read is the one handed over", async () => {
	const { links, reads } = countingLinks();
	const early = withUserKeyRead(links, '100');
	assert.deepEqual(reads, ['user 100'], 'started before anyone asks');
	assert.equal((await early.getUserKey('100'))?.apiKey, 'key of 100');
	assert.deepEqual(reads, ['user 100'], 'no second read');
	assert.equal((await early.getUserKey('200'))?.apiKey, 'key of 200');
	await early.getServerLink('9');
	await early.getServerKey('9');
	assert.deepEqual(reads, ['user 100', 'user 200', 'server link 9', 'server key 9']);
});

test('a failed early read fails whoever uses it, and an unused one is no unhandled rejection', async () => {
	const unhandled: unknown[] = [];
	const onUnhandled = (reason: unknown) => unhandled.push(reason);
	process.on('unhandledRejection', onUnhandled);
	try {
		withUserKeyRead(countingLinks(true).links, '100'); // a refusal before the link was needed
		const used = withUserKeyRead(countingLinks(true).links, '100');
		await assert.rejects(used.getUserKey('100'), StorageUnavailableError);
		await new Promise((resolve) => setTimeout(resolve, 20));
		assert.deepEqual(unhandled, []);
	} finally {
		process.off('unhandledRejection', onUnhandled);
	}
});
