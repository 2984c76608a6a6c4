import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { createKeyedMutex } from '../../src/core/claims.js';
import { auditPause } from '../../src/core/pause-to-audit.js';
import { createLogger } from '../../src/logger.js';
import { auditTime, type AuditDeps } from '../../src/settings/audit.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import type { GuildApi } from '../../src/guild-api.js';
import { createSettingsStore, type SettingsStore } from '../../src/settings/settings-store.js';
import { describeWatchPause } from '../../src/watch/describe-watch.js';
import { sqliteBackend, type OpenedBackend } from '../links/backends.js';

const PAUSED_AT = Date.UTC(2026, 10, 23, 22, 0);

describe('pause to audit', () => {
	let sandbox: DiscordSandbox;
	let opened: OpenedBackend;
	let settings: SettingsStore;
	let guildApi: GuildApi;
	let guildId: string;
	let auditChannel: string;
	let boardChannel: string;
	const logs: string[] = [];
	const log = createLogger('debug', { write: (line: string) => logs.push(line) });

	before(async () => {
		sandbox = await startDiscordSandbox({ guildCount: 1 });
		opened = await sqliteBackend.open();
		settings = createSettingsStore({ keyv: opened.stores.settings, withLock: createKeyedMutex() });
		guildApi = botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token }));
		guildId = sandbox.guildIds[0]!;
		auditChannel = sandbox.guilds[0]!.channelIds[1]!;
		boardChannel = sandbox.guilds[0]!.channelIds[0]!;
	});
	after(async () => {
		await opened.cleanup();
		await sandbox.close();
	});

	const lines = () => sandbox.channelMessages(auditChannel).map((m) => m.content);
	const boardPaused = (guildLocale: string | null, ctx: AuditDeps = { settings, guildApi, log }) =>
		auditPause(ctx, { guildId, guildLocale }, (t) => ({
			key: 'watch.audit.boardPaused',
			vars: {
				channelId: boardChannel,
				when: auditTime(PAUSED_AT),
				reason: describeWatchPause(t, { reason: 'channelGone', at: PAUSED_AT }),
			},
		}));

	test("one line in the audit channel, the reason worded in the server's language setting", async () => {
		await settings.update(guildId, { auditChannelId: auditChannel, language: 'fr' });
		await boardPaused('de');
		assert.deepEqual(lines(), [
			`Le tableau de <#${boardChannel}> a été mis en pause <t:1795471200:F> : le salon n'existe plus.`,
		]);
	});

	test("without a language setting, the server's own locale", async () => {
		await settings.update(guildId, { language: 'auto' });
		await boardPaused('de');
		assert.equal(
			lines().at(-1),
			`Das Board in <#${boardChannel}> wurde <t:1795471200:F> pausiert: der Kanal existiert nicht mehr.`,
		);
	});

	test('settings that cannot be read post nothing, log it and throw nothing', async () => {
		const before = lines().length;
		const failing = {
			get: async () => Promise.reject(new Error('store down')),
			forgetDeleted: async () => [],
		};
		await boardPaused('de', { settings: failing, guildApi, log });
		assert.equal(lines().length, before);
		assert.ok(logs.some((line) => line.includes('audit line not posted')));
	});
});
