import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { translator } from '../../src/i18n/index.js';
import type { CommandOptions } from '../../src/discord/interaction.js';
import { UserFacingError } from '../../src/errors.js';
import { describeSettings } from '../../src/settings/describe-settings.js';
import { readSettingsChange } from '../../src/settings/read-options.js';
import { DEFAULT_SETTINGS } from '../../src/settings/settings-record.js';

function options(values: Record<string, unknown>): CommandOptions {
	return {
		string: (name) => (typeof values[name] === 'string' ? (values[name] as string) : null),
		integer: (name) => (typeof values[name] === 'number' ? (values[name] as number) : null),
		number: (name) => (typeof values[name] === 'number' ? (values[name] as number) : null),
		boolean: () => null,
		channel: (name) => (values[name] as { id: string; type: number | null } | undefined) ?? null,
		role: (name) => (values[name] as { id: string } | undefined) ?? null,
	};
}

const GUILD = '120000000000000001';

const refusedWith = (key: string) => (error: unknown) => error instanceof UserFacingError && error.key === key;

describe('/settings set options', () => {
	test('reads any combination into a change and lists what it touches', () => {
		const { change, changed } = readSettingsChange(
			options({
				'server-stats-role': { id: '320000000000000001' },
				'audit-channel': { id: '420000000000000001', type: 5 },
				'default-metric': 'conversion',
				language: 'pt-BR',
			}),
			GUILD,
		);
		assert.deepEqual(change, {
			serverStatsRoleId: '320000000000000001',
			auditChannelId: '420000000000000001',
			defaultMetric: 'conversion',
			language: 'pt-BR',
		});
		assert.deepEqual(changed.sort(), ['auditChannelId', 'defaultMetric', 'language', 'serverStatsRoleId']);
	});

	test('refuses what a stale client or a crafted request could send', () => {
		assert.throws(() => readSettingsChange(options({}), GUILD), refusedWith('settings.noChanges'));
		assert.throws(
			() => readSettingsChange(options({ 'share-channel': { id: '420000000000000001', type: 2 } }), GUILD),
			refusedWith('settings.notTextChannel'),
			'a voice channel',
		);
		assert.throws(() => readSettingsChange(options({ 'default-days': 31 }), GUILD), refusedWith('stats.invalidDays'));
		assert.throws(
			() => readSettingsChange(options({ 'default-metric': 'clicks' }), GUILD),
			refusedWith('stats.invalidMetric'),
		);
		for (const role of [{ id: GUILD }, { id: 'admins' }]) {
			assert.throws(
				() => readSettingsChange(options({ 'share-role': role }), GUILD),
				refusedWith('settings.roleNotChoosable'),
				`@everyone (the server's id) and a name typed by hand: ${role.id}`,
			);
		}
	});
});

describe('/settings show text', () => {
	test('every setting on its own line, in the reader language, deleted ones said so', () => {
		const text = describeSettings(
			translator('de'),
			{ ...DEFAULT_SETTINGS, shareRoleId: null, deleted: ['shareRoleId', 'auditChannelId'], language: 'ja' },
			'fr',
		);
		const lines = text.split('\n');
		assert.equal(lines.length, 8);
		assert.match(text, /日本語/);
		assert.equal(
			lines.filter((line) => line.includes(translator('de')('settings.value.roleDeleted'))).length,
			1,
			'the share role was deleted, the server-stats role was never set',
		);
		assert.ok(text.includes(translator('de')('settings.value.auditDeleted')));
		assert.ok(text.includes(translator('de')('settings.value.everyone')));
	});
});
