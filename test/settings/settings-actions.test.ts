import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { SettingsInput } from '../../src/settings/read-options.js';
import { resetSettings, setSettings, showSettings } from '../../src/settings/settings-actions.js';
import { DEFAULT_SETTINGS } from '../../src/settings/settings-record.js';
import { ManageServerRequiredError } from '../../src/errors.js';
import {
	admin,
	ADMIN,
	AUDIT_CHANNEL,
	auditLines,
	GUILD,
	member,
	openActionContext,
	refusedWith,
	WHEN,
	type ActionTestContext,
} from '../stats/action-support.js';

const ROLE = '320000000000000001';
const SHARE_CHANNEL = '200000000000000009';

describe('the settings, the actions', () => {
	let t: ActionTestContext;
	before(async () => {
		t = await openActionContext();
	});
	beforeEach(async () => {
		await t.ctx.settings.reset(GUILD);
		t.posts.length = 0;
		t.deleted.clear();
		t.managed.clear();
	});
	after(async () => t.close());

	test('without Manage Server nothing is shown or changed, in the words of /settings', async () => {
		await t.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL, defaultDays: 90 });
		const stored = await t.ctx.settings.get(GUILD);
		const refused = refusedWith('errors.manageServerRequired', { command: 'settings' });
		for (const origin of ['discord', 'dashboard'] as const) {
			await assert.rejects(showSettings(t.ctx, member(origin), GUILD), refused);
			await assert.rejects(setSettings(t.ctx, member(origin), GUILD, { 'default-days': 7 }), refused);
			// Manage Server is checked before the values: a refusal does not tell what would have been wrong.
			await assert.rejects(setSettings(t.ctx, member(origin), GUILD, { 'default-days': 31 }), refused);
			await assert.rejects(resetSettings(t.ctx, member(origin), GUILD), refused);
		}
		assert.deepEqual(await t.ctx.settings.get(GUILD), stored);
		assert.deepEqual(t.posts, []);
	});

	test('show: the defaults; a role Discord reports deleted is unset and said to be deleted', async () => {
		assert.deepEqual(await showSettings(t.ctx, admin(), GUILD), DEFAULT_SETTINGS);
		await t.ctx.settings.update(GUILD, { shareRoleId: ROLE, shareChannelId: SHARE_CHANNEL });
		t.deleted.add(ROLE);
		const shown = await showSettings(t.ctx, admin('dashboard'), GUILD);
		assert.equal(shown.shareRoleId, null);
		assert.deepEqual(shown.deleted, ['shareRoleId']);
		assert.equal(shown.shareChannelId, SHARE_CHANNEL, 'a channel that exists stays');
		assert.equal((await t.ctx.settings.get(GUILD)).shareRoleId, null, 'and the store agrees');
	});

	test('a bad value is refused with the words of /settings set, and nothing changes', async () => {
		await t.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL });
		const stored = await t.ctx.settings.get(GUILD);
		const cases: [SettingsInput, (error: unknown) => boolean][] = [
			[{}, refusedWith('settings.noChanges')],
			[{ 'default-days': 31 }, refusedWith('stats.invalidDays', { choices: '7, 14, 30, 90, 180, 365' })],
			[{ 'default-days': '31' }, refusedWith('stats.invalidDays')],
			[{ 'default-days': '7 days' }, refusedWith('stats.invalidDays')],
			[{ 'default-metric': 'clicks' }, refusedWith('stats.invalidMetric')],
			[{ language: 'klingon' }, refusedWith('errors.unsupported')],
			[{ 'server-stats-role': '<@&1>' }, refusedWith('settings.roleNotChoosable')],
			[{ 'share-role': GUILD }, refusedWith('settings.roleNotChoosable')],
			[
				{ 'share-channel': { id: SHARE_CHANNEL, type: 2 }, 'default-days': 7 },
				refusedWith('settings.notTextChannel', { option: 'share-channel' }),
			],
			[{ 'audit-channel': { id: SHARE_CHANNEL, type: 4 } }, refusedWith('settings.notTextChannel')],
			[{ 'audit-channel': 'general' }, refusedWith('settings.notTextChannel', { option: 'audit-channel' })],
		];
		for (const [input, refused] of cases) {
			await assert.rejects(setSettings(t.ctx, admin('dashboard'), GUILD, input), refused, JSON.stringify(input));
		}
		assert.deepEqual(await t.ctx.settings.get(GUILD), stored);
		assert.deepEqual(t.posts, []);
	});

	test('set: any combination, the form’s strings and ids included; the audit line in the server language', async () => {
		const { after, changed } = await setSettings(
			t.ctx,
			admin('dashboard'),
			GUILD,
			{
				'audit-channel': { id: AUDIT_CHANNEL, type: 5 },
				'default-days': '90',
				'server-stats-role': ROLE,
				'share-channel': SHARE_CHANNEL,
				language: 'de',
			},
			{ guildLocale: 'en-US' },
		);
		assert.deepEqual(changed, ['serverStatsRoleId', 'shareChannelId', 'defaultDays', 'language', 'auditChannelId']);
		assert.deepEqual(after, {
			...DEFAULT_SETTINGS,
			serverStatsRoleId: ROLE,
			shareChannelId: SHARE_CHANNEL,
			auditChannelId: AUDIT_CHANNEL,
			defaultDays: 90,
			language: 'de',
		});
		assert.deepEqual(await t.ctx.settings.get(GUILD), after);
		assert.deepEqual(auditLines(t), [
			`<@${ADMIN}> (dashboard) hat die Einstellungen geändert, ${WHEN}: \`server-stats-role\`: <@&${ROLE}> ` +
				`(oder Server verwalten), \`share-channel\`: <#${SHARE_CHANNEL}>, \`default-days\`: 90 Tage, ` +
				`\`language\`: Deutsch, \`audit-channel\`: <#${AUDIT_CHANNEL}>`,
		]);
	});

	test('an empty value puts that setting back to its default; absent ones stay', async () => {
		await t.ctx.settings.update(GUILD, {
			serverStatsRoleId: ROLE,
			shareChannelId: SHARE_CHANNEL,
			defaultDays: 90,
			defaultMetric: 'joins',
			language: 'ja',
		});
		const { after, changed } = await setSettings(t.ctx, admin(), GUILD, {
			'server-stats-role': '',
			'share-channel': null,
			'default-days': '',
			language: '',
		});
		assert.deepEqual(changed, ['serverStatsRoleId', 'shareChannelId', 'defaultDays', 'language']);
		assert.deepEqual(after, { ...DEFAULT_SETTINGS, defaultMetric: 'joins' });
	});

	test('a refusal for Manage Server is its own type, so the dashboard answers it with 403', async () => {
		await assert.rejects(setSettings(t.ctx, member('dashboard'), GUILD, { 'default-days': 7 }), (error: unknown) => {
			assert.ok(error instanceof ManageServerRequiredError);
			return true;
		});
		await assert.rejects(setSettings(t.ctx, admin(), GUILD, { 'default-days': 31 }), (error: unknown) => {
			assert.ok(!(error instanceof ManageServerRequiredError), 'a wrong value is not about a permission');
			return true;
		});
	});

	test("a role Discord reports deleted or a bot's own (managed) is refused for both front ends", async () => {
		t.deleted.add(ROLE);
		const BOT_ROLE = '320000000000000002';
		t.managed.add(BOT_ROLE);
		for (const origin of ['discord', 'dashboard'] as const) {
			await assert.rejects(
				setSettings(t.ctx, admin(origin), GUILD, { 'server-stats-role': ROLE }),
				refusedWith('settings.roleNotChoosable'),
			);
			await assert.rejects(
				setSettings(t.ctx, admin(origin), GUILD, { 'share-role': BOT_ROLE, 'default-days': 7 }),
				refusedWith('settings.roleManaged'),
			);
		}
		assert.deepEqual(await t.ctx.settings.get(GUILD), DEFAULT_SETTINGS, 'nothing changed');
		assert.deepEqual(t.posts, []);
	});

	test('a whole form: only what differs from the stored settings is checked, changed and in the audit line', async () => {
		await t.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL, shareRoleId: ROLE, defaultDays: 90 });
		// The stored role became a bot's own since: left as it is, it is no change and no refusal.
		t.managed.add(ROLE);
		const form: SettingsInput = {
			'server-stats-role': '',
			'share-role': ROLE,
			'share-channel': '',
			'default-days': '90',
			'default-metric': 'joins',
			language: 'auto',
			'audit-channel': { id: AUDIT_CHANNEL, type: 0 },
		};
		const { after, changed } = await setSettings(t.ctx, admin('dashboard'), GUILD, form, {
			guildLocale: 'en-US',
			wholeForm: true,
		});
		assert.deepEqual(changed, ['defaultMetric']);
		assert.equal(after.defaultMetric, 'joins');
		assert.equal(after.shareRoleId, ROLE);
		assert.equal(auditLines(t).length, 1);
		assert.match(auditLines(t)[0]!, /`default-metric`/);
		assert.doesNotMatch(auditLines(t)[0]!, /share-role|default-days/);

		const again = await setSettings(
			t.ctx,
			admin('dashboard'),
			GUILD,
			{ ...form, 'default-metric': 'joins' },
			{
				wholeForm: true,
			},
		);
		assert.deepEqual(again.changed, [], 'the same form again changes nothing');
		assert.equal(auditLines(t).length, 1, 'and posts no audit line');
		await assert.rejects(
			setSettings(t.ctx, member('dashboard'), GUILD, form, { wholeForm: true }),
			refusedWith('errors.manageServerRequired'),
			'an unchanged form still needs Manage Server',
		);
	});

	test('reset: back to the defaults, the line goes to the audit channel from before, which it unset', async () => {
		await t.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL, defaultMetric: 'conversion' });
		const { before } = await resetSettings(t.ctx, admin(), GUILD, { guildLocale: 'en-US' });
		assert.equal(before.auditChannelId, AUDIT_CHANNEL);
		assert.equal(before.defaultMetric, 'conversion');
		assert.deepEqual(await t.ctx.settings.get(GUILD), DEFAULT_SETTINGS);
		assert.deepEqual(auditLines(t), [`<@${ADMIN}> put all settings back to their defaults ${WHEN}.`]);
	});
});
