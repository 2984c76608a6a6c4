// Boards through the Discord stand-in: the first post, edits only when a figure changed, one attachment at most, a
// deleted message posted again, a refusing channel paused, and the refusals of `/board add`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Permission } from '../../sandbox/index.js';
import { addBoard, listBoards, removeBoard } from '../../src/boards/board-actions.js';
import { boardDeps, refreshBoard } from '../../src/boards/board-job.js';
import { boardStoreOf } from '../../src/boards/board-store.js';
import { execute } from '../../commands/board.js';
import { watchCommand } from '../watch/support.js';
import { refusal } from '../watch/action-support.js';
import { admin, openBoardContext, type BoardTestContext } from './support.js';

const MINUTES = 15 * 60_000;

describe('boards on the stand-in', () => {
	let env: BoardTestContext;
	before(async () => {
		env = await openBoardContext();
	});
	after(async () => env.close());

	const refresh = async (channelId: string) => {
		env.clock.advance(MINUTES);
		const record = await boardStoreOf(env.ctx).get(env.guildId, channelId);
		assert.ok(record, 'the board is stored');
		return refreshBoard(boardDeps(env.ctx, env.clock.now), record);
	};
	const messagesIn = (channelId: string) => env.sandbox.channelMessages(channelId);

	it('posts once, edits that message only when a figure changed, and never holds more than one attachment', async () => {
		const channel = env.channels[0]!;
		env.setSends(10);
		const added = await addBoard(env.ctx, admin(), env.guildId, {
			channel: { id: channel, type: 0 },
			days: null,
			metric: null,
			guildLocale: 'en-US',
		});
		assert.equal(added.state, 'posted');
		assert.deepEqual([added.record.days, added.record.metric], [30, 'sends']);
		const [first] = messagesIn(channel);
		assert.ok(first);
		assert.equal(messagesIn(channel).length, 1);
		assert.equal(added.record.messageId, first.id);
		assert.match(first.content, /Live board: the bot updates this message every 15 minutes/);
		assert.equal(first.attachments.length, 1);
		// The embed's attachment://stats.png was matched to the upload (the stand-in rewrites it to the file's URL).
		assert.equal((first.embeds[0] as { image?: { url?: string } }).image?.url, first.attachments[0]!.url);
		assert.match(JSON.stringify(first.embeds[0]), /Today so far","value":"Sends: \*\*10\*\*/);

		// Nothing changed but the time the figures were read: no edit.
		assert.equal(await refresh(channel), 'unchanged');
		assert.equal(first.editedAt, null);

		env.setSends(11);
		assert.equal(await refresh(channel), 'edited');
		assert.equal(messagesIn(channel).length, 1);
		const [edited] = messagesIn(channel);
		assert.equal(edited?.id, first.id);
		assert.notEqual(edited?.editedAt, null);
		assert.equal(edited?.attachments.length, 1, 'the old chart was replaced, not kept beside the new one');
		assert.match(JSON.stringify(edited?.embeds[0]), /Today so far","value":"Sends: \*\*11\*\*/);

		env.setSends(12);
		assert.equal(await refresh(channel), 'edited');
		assert.equal(messagesIn(channel)[0]?.attachments.length, 1);
		assert.equal(messagesIn(channel).length, 1);
		assert.deepEqual(env.sandbox.violations, []);
		assert.ok(env.auditLines().some((line) => line.includes(`added a board (sends, 30 days) in <#${channel}>`)));
	});

	it('posts again at the next refresh once the message was deleted, changed or not', async () => {
		const channel = env.channels[0]!;
		const before = messagesIn(channel)[0]!;
		env.sandbox.deleteMessage(before.id);
		assert.equal(await refresh(channel), 'posted');
		const [again] = messagesIn(channel);
		assert.ok(again && again.id !== before.id);
		assert.equal(messagesIn(channel).length, 1);
		assert.equal((await boardStoreOf(env.ctx).get(env.guildId, channel))?.messageId, again.id);

		env.sandbox.deleteMessage(again.id);
		env.setSends(13);
		assert.equal(await refresh(channel), 'posted');
		assert.equal(messagesIn(channel).length, 1);
		assert.equal((await boardStoreOf(env.ctx).get(env.guildId, channel))?.posts, 3);
	});

	it('pauses with the reason when the channel refuses the bot (403), posts an audit line, and lists it paused', async () => {
		const channel = env.channels[0]!;
		env.sandbox.setChannelOverwrites(channel, [{ id: env.sandbox.botUserId, type: 1, deny: Permission.ViewChannel }]);
		env.setSends(20);
		assert.equal(await refresh(channel), 'paused');
		const stored = await boardStoreOf(env.ctx).get(env.guildId, channel);
		assert.equal(stored?.paused?.reason, 'missingPermissions');
		assert.ok(env.auditLines().some((line) => line.includes(`The board in <#${channel}> was paused`)));
		assert.equal(await refresh(channel), 'paused', 'a paused board is left alone');

		const listed = watchCommand({ commandName: 'alert', subcommand: 'list' });
		await execute(Object.assign(listed, { commandName: 'board', guildId: env.guildId }), env.ctx as never);
		const text = listed.texts.at(-1) ?? '';
		assert.match(text, /\*\*Boards\*\* \(1\/3\), refreshed every 15 minutes/);
		assert.match(text, /paused\*\*: Discord refused the bot a permission there/);
		assert.match(text, /Run `\/board add` for that channel again to resume it/);

		// Adding it again resumes it: the same message is edited, no second one.
		env.sandbox.setChannelOverwrites(channel, []);
		const resumed = await addBoard(env.ctx, admin(), env.guildId, {
			channel: { id: channel, type: 0 },
			days: 7,
			metric: 'joins',
			guildLocale: 'en-US',
		});
		assert.equal(resumed.state, 'posted');
		assert.equal(messagesIn(channel).length, 1);
		assert.equal(resumed.record.messageId, messagesIn(channel)[0]?.id);
		await execute(Object.assign(listed, { commandName: 'board', guildId: env.guildId }), env.ctx as never);
		assert.match(listed.texts.at(-1) ?? '', /joins, 7 days; \[its message\]\(https:\/\/discord.com\/channels\//);
	});

	it('needs Read Message History: refused by /board add without it, and paused once when it is taken away', async () => {
		const channel = env.channels[0]!;
		const noHistory = [{ id: env.sandbox.botUserId, type: 1 as const, deny: Permission.ReadMessageHistory }];
		env.sandbox.setChannelOverwrites(channel, noHistory);
		const refused = await refusal(
			addBoard(env.ctx, admin(), env.guildId, {
				channel: { id: channel, type: 0 },
				days: 7,
				metric: 'joins',
				guildLocale: 'en-US',
			}),
		);
		assert.equal(refused.key, 'watch.cannotUse');
		assert.match(refused.text, /Read Message History/);

		env.sandbox.setChannelOverwrites(channel, []);
		assert.equal(await refresh(channel), 'unchanged', 'the board of the test before, resumed');
		env.sandbox.setChannelOverwrites(channel, noHistory);
		const pausedLines = () => env.auditLines().filter((line) => line.includes(`The board in <#${channel}> was paused`));
		const linesBefore = pausedLines().length;
		// Nothing changed, so the refresh reads the message back: refused, it pauses instead of asking every refresh.
		assert.equal(await refresh(channel), 'paused');
		assert.equal((await boardStoreOf(env.ctx).get(env.guildId, channel))?.paused?.reason, 'missingPermissions');
		assert.equal(pausedLines().length, linesBefore + 1);
		env.sandbox.setChannelOverwrites(channel, []);
	});

	it('refuses without Manage Server, without a server key, a wrong channel type, missing permissions and a 4th board', async () => {
		const add = (channelId: string, type = 0, actor = admin(), guildId = env.guildId) =>
			addBoard(env.ctx, actor, guildId, {
				channel: { id: channelId, type },
				days: 30,
				metric: 'sends',
				guildLocale: null,
			});
		assert.equal(
			(await refusal(add(env.channels[1]!, 0, admin({ canManageServer: false })))).key,
			'errors.manageServerRequired',
		);
		assert.equal(
			(await refusal(add(env.channels[1]!, 0, admin(), '100000000000000999'))).key,
			'watch.board.needsServerKey',
		);
		const voice = env.sandbox.guilds[0]!.voiceChannelIds[0]!;
		assert.equal((await refusal(add(voice, 2))).text, 'A board must be in a text or announcement channel.');
		assert.equal(
			(
				await refusal(
					addBoard(env.ctx, admin(), env.guildId, {
						channel: { id: env.channels[1]!, type: 0 },
						days: 12,
						metric: null,
						guildLocale: null,
					}),
				)
			).key,
			'watch.board.invalidView',
		);
		env.sandbox.setChannelOverwrites(env.channels[1]!, [
			{ id: env.sandbox.botUserId, type: 1, deny: Permission.AttachFiles | Permission.EmbedLinks },
		]);
		const missing = await refusal(add(env.channels[1]!));
		assert.equal(missing.key, 'watch.cannotUse');
		assert.match(missing.text, /Embed Links and Attach Files/);
		env.sandbox.setChannelOverwrites(env.channels[1]!, []);

		assert.equal((await add(env.channels[1]!)).state, 'posted');
		assert.equal((await add(env.channels[2]!, 5)).state, 'posted');
		const tooMany = await refusal(add(env.channels[3]!));
		assert.equal(tooMany.key, 'watch.board.tooMany');
		assert.equal(messagesIn(env.channels[3]!).length, 0);
		assert.equal((await listBoards(env.ctx, admin(), env.guildId)).records.length, 3);
	});

	it('removes a board whose channel was deleted, by its id, with an audit line', async () => {
		const channel = env.channels[2]!;
		env.sandbox.deleteChannel(channel);
		assert.equal(await refresh(channel), 'paused');
		assert.equal((await boardStoreOf(env.ctx).get(env.guildId, channel))?.paused?.reason, 'channelGone');
		assert.equal(
			(await refusal(removeBoard(env.ctx, admin({ canManageServer: false }), env.guildId, channel))).key,
			'errors.manageServerRequired',
		);
		assert.deepEqual(await removeBoard(env.ctx, admin(), env.guildId, `<#${channel}>`), {
			channelId: channel,
			removed: true,
		});
		assert.deepEqual(await removeBoard(env.ctx, admin(), env.guildId, channel), { channelId: channel, removed: false });
		assert.ok(env.auditLines().some((line) => line.includes(`removed the board in <#${channel}>`)));
		assert.equal((await listBoards(env.ctx, admin(), env.guildId)).records.length, 2);
	});
});
