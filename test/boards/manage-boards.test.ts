// The manage page's Boards section: each board's state and pause reason, the add form with `/board add`'s
// options (text and announcement channels only) and a remove button per row; and the stand-in's message edits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REST, Routes } from 'discord.js';
import { startDiscordSandbox } from '../../sandbox/index.js';
import { BOARD_SCHEMA_VERSION, type BoardRecord } from '../../src/boards/board-record.js';
import { translator } from '../../src/i18n/index.js';
import { boardsManageSection } from '../../src/web/manage/manage-boards.js';
import { TINY_PNG } from '../sandbox/test-bot.js';

const board = (channelId: string, overrides: Partial<BoardRecord> = {}): BoardRecord => ({
	v: BOARD_SCHEMA_VERSION,
	guildId: '100000000000000001',
	channelId,
	days: 30,
	metric: 'sends',
	createdBy: '300000000000000001',
	createdAt: Date.UTC(2026, 10, 23),
	guildLocale: null,
	paused: null,
	messageId: null,
	posts: 0,
	contentHash: null,
	updatedAt: null,
	...overrides,
});

test('the Boards section lists each board with its state, an add form and a remove button per row', () => {
	const page = (locale: 'en-US' | 'ja') =>
		boardsManageSection({
			t: translator(locale),
			locale,
			now: Date.UTC(2026, 10, 23, 12),
			action: '/servers/100000000000000001/boards',
			channels: [
				{ id: '200000000000000001', name: 'general', type: 0, position: 0, parentId: null },
				{ id: '200000000000000002', name: 'news', type: 5, position: 1, parentId: null },
				{ id: '200000000000000003', name: 'Lounge', type: 2, position: 2, parentId: null },
			],
			names: { channels: new Map([['200000000000000001', 'general']]) },
			boards: {
				max: 3,
				everyMinutes: 15,
				records: [
					board('200000000000000001', {
						messageId: '400000000000000001',
						posts: 1,
						updatedAt: Date.UTC(2026, 10, 23, 11),
					}),
					board('200000000000000002', { metric: 'joins', days: 7, paused: { reason: 'missingPermissions', at: 0 } }),
				],
			},
		}).text;
	const html = page('en-US');
	assert.match(html, /<section id="boards"/);
	assert.match(html, /Boards.*\(2\/3\), refreshed every 15 minutes/s);
	assert.match(html, /sends, 30 days/);
	assert.match(
		html,
		/href="https:\/\/discord.com\/channels\/100000000000000001\/200000000000000001\/400000000000000001"/,
	);
	assert.match(html, /joins, 7 days/);
	assert.match(html, /paused.*Discord refused the bot a permission there/s);
	assert.equal(html.match(/name="action" value="remove"/g)?.length, 2);
	assert.match(html, /<option value="200000000000000002"/);
	assert.doesNotMatch(html, /<option value="200000000000000003"/, 'a voice channel takes no board');
	assert.match(html, /name="days"/);
	assert.match(html, /name="metric"/);
	assert.match(page('ja'), /一時停止中/);
});

test('the stand-in edits a message as Discord does: attachments kept without `attachments`, replaced with it', async () => {
	const sandbox = await startDiscordSandbox({ guildCount: 1 });
	try {
		const rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.token);
		const channelId = sandbox.guilds[0]!.defaultChannelId;
		const file = (name: string) => ({ name, data: TINY_PNG, contentType: 'image/png' });
		const posted = (await rest.post(Routes.channelMessages(channelId), {
			body: { content: 'one' },
			files: [file('a.png')],
		})) as { id: string };
		const message = () => sandbox.channelMessages(channelId).find((each) => each.id === posted.id);
		await rest.patch(Routes.channelMessage(channelId, posted.id), { body: { content: 'two' }, files: [file('b.png')] });
		assert.deepEqual(
			message()?.attachments.map((a) => a.filename),
			['a.png', 'b.png'],
		);
		await rest.patch(Routes.channelMessage(channelId, posted.id), {
			body: {
				content: 'three',
				attachments: [{ id: '0', filename: 'c.png' }],
				embeds: [{ image: { url: 'attachment://c.png' } }],
			},
			files: [file('c.png')],
		});
		assert.deepEqual(
			message()?.attachments.map((a) => a.filename),
			['c.png'],
		);
		assert.equal(message()?.content, 'three');
		sandbox.deleteMessage(posted.id);
		const gone = await rest
			.patch(Routes.channelMessage(channelId, posted.id), { body: { content: 'four' } })
			.catch((error: { code?: number; status?: number }) => error);
		assert.deepEqual([(gone as { status?: number }).status, (gone as { code?: number }).code], [404, 10008]);
	} finally {
		await sandbox.close();
	}
});
