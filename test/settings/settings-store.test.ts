import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKeyedMutex } from '../../src/store/locks.js';
import { migrateRecords } from '../../src/core/migrate-records.js';
import { createSettingsStore, type SettingsStore } from '../../src/settings/settings-store.js';
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA_VERSION } from '../../src/settings/settings-record.js';
import { postgresBackend, redisBackend, sqliteBackend } from '../links/backends.js';
import type { Backend, OpenedBackend } from '../links/backends.js';

const GUILD = '200000000000000001';
const OTHER_GUILD = '200000000000000002';
const ROLE = '300000000000000001';
const CHANNEL = '400000000000000001';
const AUDIT = '400000000000000002';

const backends: Backend[] = [sqliteBackend, await redisBackend(), await postgresBackend()];

for (const backend of backends) {
	if (backend.unavailable) {
		if (process.env.CI === 'true') {
			test(`${backend.name} backend is reachable in CI`, () => assert.fail(backend.unavailable ?? ''));
		} else {
			test(`settings on ${backend.name}`, (t) => t.skip(backend.unavailable ?? ''));
		}
		continue;
	}
	describe(`settings on ${backend.name}`, () => {
		let opened: OpenedBackend;
		let settings: SettingsStore;
		before(async () => {
			opened = await backend.open();
			settings = createSettingsStore({ keyv: opened.stores.settings, withLock: createKeyedMutex() });
		});
		after(() => opened.cleanup());

		test('a server without settings reads the defaults, and nothing is stored for it', async () => {
			assert.deepEqual(await settings.get(GUILD), DEFAULT_SETTINGS);
			assert.equal(await opened.stores.settings.get(GUILD), undefined);
		});

		test('update keeps what it does not touch; the record is plain JSON under settings:<guildId>', async () => {
			await settings.update(GUILD, { shareRoleId: ROLE, defaultDays: 90 });
			const { before: prior, after: now } = await settings.update(GUILD, {
				shareChannelId: CHANNEL,
				language: 'de',
				defaultMetric: 'joins',
			});
			assert.equal(prior.shareChannelId, null);
			assert.deepEqual(now, {
				...DEFAULT_SETTINGS,
				shareRoleId: ROLE,
				shareChannelId: CHANNEL,
				defaultDays: 90,
				defaultMetric: 'joins',
				language: 'de',
			});
			assert.deepEqual(await settings.get(GUILD), now);
			assert.deepEqual(await settings.get(OTHER_GUILD), DEFAULT_SETTINGS, 'one record per server');
			const raw = await opened.dumpRaw();
			assert.match(
				raw,
				new RegExp(`settings:+${GUILD}`),
				'the namespace joins key and server as Keyv does on this backend',
			);
			assert.match(raw, new RegExp(`"version":${SETTINGS_SCHEMA_VERSION}`));
			assert.match(raw, new RegExp(`"shareChannelId":"${CHANNEL}"`));
		});

		test('a deleted role or channel is unset and remembered as deleted until set again', async () => {
			await settings.update(GUILD, { serverStatsRoleId: ROLE, auditChannelId: AUDIT });
			assert.deepEqual(await settings.forgetDeleted({ guildId: GUILD, roleId: ROLE }), [
				'serverStatsRoleId',
				'shareRoleId',
			]);
			assert.deepEqual(await settings.forgetDeleted({ guildId: GUILD, channelId: AUDIT }), ['auditChannelId']);
			assert.deepEqual(await settings.forgetDeleted({ guildId: GUILD, channelId: '400000000000000099' }), []);
			let now = await settings.get(GUILD);
			assert.equal(now.serverStatsRoleId, null);
			assert.equal(now.shareRoleId, null);
			assert.equal(now.auditChannelId, null);
			assert.equal(now.shareChannelId, CHANNEL, 'another channel stays');
			assert.deepEqual(now.deleted.sort(), ['auditChannelId', 'serverStatsRoleId', 'shareRoleId']);
			await settings.update(GUILD, { shareRoleId: ROLE });
			now = await settings.get(GUILD);
			assert.equal(now.shareRoleId, ROLE);
			assert.deepEqual(now.deleted.sort(), ['auditChannelId', 'serverStatsRoleId']);
		});

		test('a record with fields it does not understand falls back field by field', async () => {
			await opened.stores.settings.set(OTHER_GUILD, {
				version: 99,
				shareChannelId: 'not-a-snowflake',
				defaultDays: 31,
				defaultMetric: 'clicks',
				language: 'xx',
				shareRoleId: ROLE,
				deleted: ['nonsense', 'auditChannelId'],
			});
			assert.deepEqual(await settings.get(OTHER_GUILD), {
				...DEFAULT_SETTINGS,
				shareRoleId: ROLE,
				deleted: ['auditChannelId'],
			});
		});

		test('reset puts everything back and removes the record', async () => {
			const prior = await settings.reset(GUILD);
			assert.equal(prior.shareRoleId, ROLE);
			assert.deepEqual(await settings.get(GUILD), DEFAULT_SETTINGS);
			assert.equal(await opened.stores.settings.get(GUILD), undefined);
		});
	});
}

describe('settings across processes and stores', () => {
	test('concurrent updates from two stores sharing one lock lose no change', async () => {
		const opened = await sqliteBackend.open();
		try {
			const withLock = createKeyedMutex();
			const a = createSettingsStore({ keyv: opened.stores.settings, withLock });
			const b = createSettingsStore({ keyv: opened.stores.settings, withLock });
			await Promise.all([
				a.update(GUILD, { shareRoleId: ROLE }),
				b.update(GUILD, { shareChannelId: CHANNEL }),
				a.update(GUILD, { defaultDays: 7 }),
				b.update(GUILD, { language: 'ja' }),
			]);
			const now = await a.get(GUILD);
			assert.deepEqual([now.shareRoleId, now.shareChannelId, now.defaultDays, now.language], [ROLE, CHANNEL, 7, 'ja']);
		} finally {
			await opened.cleanup();
		}
	});

	test('links migrate copies the settings namespace', async () => {
		const source = await sqliteBackend.open();
		const target = await sqliteBackend.open();
		try {
			const withLock = createKeyedMutex();
			await createSettingsStore({ keyv: source.stores.settings, withLock }).update(GUILD, {
				shareChannelId: CHANNEL,
				defaultMetric: 'conversion',
			});
			const result = await migrateRecords(source.stores, target.stores);
			assert.ok(result.matches);
			const copied = await createSettingsStore({ keyv: target.stores.settings, withLock }).get(GUILD);
			assert.equal(copied.shareChannelId, CHANNEL);
			assert.equal(copied.defaultMetric, 'conversion');
		} finally {
			await source.cleanup();
			await target.cleanup();
		}
	});
});
