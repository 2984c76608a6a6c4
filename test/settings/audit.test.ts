import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { createKeyedMutex } from '../../src/store/locks.js';
import { createLogger } from '../../src/logger.js';
import { auditTime, postAudit } from '../../src/settings/audit.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import type { GuildApi } from '../../src/guild-api.js';
import { createSettingsStore, type SettingsStore } from '../../src/settings/settings-store.js';
import { sqliteBackend, type OpenedBackend } from '../links/backends.js';

const ADMIN = '310000000000000011';
const KEY = 'sk_live_0123456789abcdefWXYZ';

describe('audit lines over the bot token REST (the stand-in)', () => {
	let sandbox: DiscordSandbox;
	let opened: OpenedBackend;
	let settings: SettingsStore;
	let guildApi: GuildApi;
	let guildId: string;
	let auditChannel: string;
	const logs: string[] = [];
	const log = createLogger('debug', { write: (line: string) => logs.push(line) });

	before(async () => {
		sandbox = await startDiscordSandbox({ guildCount: 1 });
		opened = await sqliteBackend.open();
		settings = createSettingsStore({ keyv: opened.stores.settings, withLock: createKeyedMutex() });
		guildApi = botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }));
		guildId = sandbox.guildIds[0]!;
		auditChannel = sandbox.guilds[0]!.channelIds[1]!;
	});
	after(async () => {
		await opened.cleanup();
		await sandbox.close();
	});

	const ctx = () => ({ settings, guildApi, log });
	const lines = () => sandbox.channelMessages(auditChannel).map((m) => m.content);

	test('nothing is posted while no audit channel is set', async () => {
		await postAudit(ctx(), guildId, {
			key: 'audit.serverKeyRemoved',
			vars: { actor: `<@${ADMIN}>`, when: auditTime() },
		});
		assert.deepEqual(lines(), []);
	});

	test('a line names the member, the time as a Discord timestamp, and no more of a key than 4 characters', async () => {
		await settings.update(guildId, { auditChannelId: auditChannel });
		// A careless caller passing the whole key still puts only its last 4 characters in the channel.
		await postAudit(ctx(), guildId, {
			key: 'audit.serverKeySet',
			vars: { actor: `<@${ADMIN}>`, keyHint: KEY, when: auditTime(Date.UTC(2026, 10, 23, 22, 0)) },
		});
		assert.equal(lines().length, 1);
		const [line] = lines();
		assert.equal(line, `<@${ADMIN}> linked the server's API key (ending \`…WXYZ\`) <t:1795471200:F>.`);
		assert.ok(!line!.includes(KEY.slice(0, -4)));
		assert.ok(!logs.join('\n').includes(KEY), 'no key in the logs either');
	});

	test("the line follows the server's language setting, else the server's locale", async () => {
		await settings.update(guildId, { language: 'fr' });
		await postAudit(ctx(), guildId, { key: 'audit.settingsReset', vars: { actor: `<@${ADMIN}>`, when: auditTime() } });
		assert.match(lines().at(-1)!, /réglages/);
		assert.doesNotMatch(lines().at(-1)!, /settings/);
		await settings.update(guildId, { language: 'auto' });
		await postAudit(
			ctx(),
			guildId,
			{ key: 'audit.settingsReset', vars: { actor: `<@${ADMIN}>`, when: auditTime() } },
			{ guildLocale: 'ja' },
		);
		assert.match(lines().at(-1)!, /[\u3040-\u30ff\u4e00-\u9fff]/);
	});

	test('an audit channel Discord reports unknown is unset and remembered as deleted; nothing throws', async () => {
		await settings.update(guildId, { auditChannelId: '499999999999999999' });
		await postAudit(ctx(), guildId, {
			key: 'audit.serverKeyRemoved',
			vars: { actor: `<@${ADMIN}>`, when: auditTime() },
		});
		const now = await settings.get(guildId);
		assert.equal(now.auditChannelId, null);
		assert.deepEqual(now.deleted, ['auditChannelId']);
		sandbox.clearRecords();
	});

	test('channel and role checks: existing and deleted, as Discord answers them', async () => {
		assert.equal(await guildApi.channelState(guildId, auditChannel), 'exists');
		assert.equal(await guildApi.channelState(guildId, '499999999999999999'), 'deleted');
		const guild = sandbox.guilds.find((candidate) => candidate.id === guildId)!;
		const role = (guild.roles()[2] as { id: string }).id;
		assert.equal(await guildApi.roleState(guildId, role), 'exists');
		assert.equal(await guildApi.roleState(guildId, '320000000000000001'), 'deleted');
		assert.deepEqual(await guildApi.describeRole(guildId, role), { state: 'exists', managed: false });
		assert.deepEqual(await guildApi.describeRole(guildId, guild.botRoleId!), { state: 'exists', managed: true });
		assert.deepEqual(await guildApi.describeRole(guildId, '320000000000000001'), { state: 'deleted', managed: false });
		sandbox.assertNoViolations();
	});
});
