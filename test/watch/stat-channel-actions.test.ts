// addStatChannel, removeStatChannel and listStatChannels without Discord or HTTP: a real SQLite store, a GuildApi
// that records renames, and the stand-in stats endpoint's figures.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PermissionFlagsBits } from 'discord.js';
import { ChannelRefusedError, RenameRateLimitedError } from '../../src/errors.js';
import {
	addStatChannel,
	listStatChannels,
	removeStatChannel,
	type StatChannelInput,
} from '../../src/watch/stat-channel-actions.js';
import { watchStoreOf } from '../../src/watch/watch-context.js';
import { actorWith, openActionContext, refusal, type ActionTestContext } from './action-support.js';
import { ADMIN, GUILD, TEXT, VOICE } from './support.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const WHEN = `<t:${NOW / 1000}:F>`;
const RENAMES = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ManageChannels;
const VOICE_RENAMES = RENAMES | PermissionFlagsBits.Connect;
/** Voice channels 200000000000000010 to …15, the bot allowed to rename each. */
const voiceChannel = (index: number) => `2000000000000000${10 + index}`;

function input(overrides: Partial<StatChannelInput> = {}): StatChannelInput {
	return { channel: { id: VOICE, type: 2 }, figure: 'sends-all', guildLocale: 'en-US', ...overrides };
}

describe('stat channel actions', () => {
	let env: ActionTestContext;
	const stored = async () => watchStoreOf(env.actions).statChannels.listServer(GUILD);

	beforeEach(async () => {
		env = await openActionContext(() => NOW);
		env.setFigures((at) => ({ generatedAt: new Date(at).toISOString(), sendsAllTime: 1234 }));
		env.guildApi.permissions.set(VOICE, VOICE_RENAMES);
		for (let index = 0; index < 6; index += 1) env.guildApi.permissions.set(voiceChannel(index), VOICE_RENAMES);
	});
	afterEach(async () => env.close());

	it('adds a stat channel, renames it at once and writes the audit line', async () => {
		const added = await addStatChannel(env.actions, actorWith(), GUILD, input());
		assert.equal(added.state, 'named');
		assert.equal(added.state === 'named' && added.name, 'Sends all time: 1,234');
		assert.equal(added.record.channelId, VOICE);
		assert.equal(added.record.createdBy, ADMIN);
		assert.deepEqual(
			env.guildApi.renames.map((rename) => rename.name),
			['Sends all time: 1,234'],
		);
		assert.deepEqual(await stored(), [added.record]);
		assert.deepEqual(env.auditLines(), [`<@${ADMIN}> made <#${VOICE}> a stat channel (Sends all time) ${WHEN}.`]);
		assert.deepEqual(await listStatChannels(env.actions, actorWith(), GUILD), {
			records: [added.record],
			max: 5,
			everyMinutes: 10,
			// No refresh has run in this process yet, so there is no lateness to tell.
			lateMinutes: null,
		});
	});

	it('says (dashboard) in the audit line of a change made on the web', async () => {
		await addStatChannel(env.actions, actorWith({ origin: 'dashboard' }), GUILD, input());
		await removeStatChannel(env.actions, actorWith({ origin: 'dashboard' }), GUILD, VOICE);
		assert.deepEqual(env.auditLines(), [
			`<@${ADMIN}> (dashboard) made <#${VOICE}> a stat channel (Sends all time) ${WHEN}.`,
			`<@${ADMIN}> (dashboard) removed the stat channel <#${VOICE}> ${WHEN}.`,
		]);
	});

	it('says when the name follows later, and when Discord refused the rename', async () => {
		env.guildApi.failRename = () => new RenameRateLimitedError(60_000);
		const later = await addStatChannel(env.actions, actorWith(), GUILD, input());
		assert.equal(later.state, 'later');
		assert.equal(later.record.blockedUntil, NOW + 60_000);

		env.guildApi.failRename = () => new ChannelRefusedError('missingPermissions');
		const paused = await addStatChannel(
			env.actions,
			actorWith(),
			GUILD,
			input({ channel: { id: voiceChannel(0), type: 2 } }),
		);
		assert.equal(paused.state, 'paused');
		assert.equal(paused.state === 'paused' && paused.pause.reason, 'missingPermissions');
	});

	it('refuses the sixth stat channel and stores nothing more; changing a figure at the limit is allowed', async () => {
		for (let index = 0; index < 5; index += 1) {
			await addStatChannel(env.actions, actorWith(), GUILD, input({ channel: { id: voiceChannel(index), type: 2 } }));
		}
		const refused = await refusal(
			addStatChannel(env.actions, actorWith(), GUILD, input({ channel: { id: voiceChannel(5), type: 2 } })),
		);
		assert.equal(refused.key, 'watch.statChannel.tooMany');
		assert.match(refused.text, /already has 5 stat channels/);
		assert.equal((await stored()).length, 5);
		assert.equal(await watchStoreOf(env.actions).statChannels.get(GUILD, voiceChannel(5)), null);

		const changed = await addStatChannel(
			env.actions,
			actorWith(),
			GUILD,
			input({ channel: { id: voiceChannel(0), type: 2 }, figure: 'joins-all' }),
		);
		assert.equal(changed.record.figure, 'joins-all');
		assert.equal((await stored()).length, 5);
	});

	it('refuses a channel of the wrong kind and a figure it does not know', async () => {
		const stage = { id: voiceChannel(9), type: 13 };
		for (const channel of [{ id: TEXT, type: 0 }, { id: TEXT, type: 5 }, stage, { id: '', type: 2 }, null]) {
			const refused = await refusal(addStatChannel(env.actions, actorWith(), GUILD, input({ channel })));
			assert.equal(refused.key, 'watch.statChannel.wrongType', JSON.stringify(channel));
			assert.equal(refused.text, 'A stat channel must be a voice channel or a category.');
		}
		const figure = await refusal(addStatChannel(env.actions, actorWith(), GUILD, input({ figure: 'sends-ever' })));
		assert.equal(figure.key, 'watch.statChannel.invalidFigure');
		assert.deepEqual(await stored(), []);
		assert.deepEqual(env.guildApi.renames, []);
	});

	it('refuses a member without Manage Server, whatever they do, and stores nothing', async () => {
		const member = actorWith({ canManageServer: false, userId: '300000000000000009' });
		for (const action of [
			addStatChannel(env.actions, member, GUILD, input()),
			listStatChannels(env.actions, member, GUILD),
			removeStatChannel(env.actions, member, GUILD, VOICE),
		]) {
			const refused = await refusal(action);
			assert.equal(refused.key, 'errors.manageServerRequired');
			assert.deepEqual(refused.vars, { command: 'statchannel' });
		}
		assert.deepEqual(await stored(), []);
		assert.deepEqual(env.guildApi.renames, []);
		assert.deepEqual(env.auditLines(), []);
	});

	it('names the permission the bot lacks: Connect for a voice channel, not for a category', async () => {
		env.guildApi.permissions.set(VOICE, RENAMES);
		const refused = await refusal(addStatChannel(env.actions, actorWith(), GUILD, input()));
		assert.equal(refused.key, 'watch.cannotUse');
		assert.equal(refused.text, `The bot cannot use <#${VOICE}>: it lacks Connect there.`);
		assert.deepEqual(await stored(), []);

		const category = await addStatChannel(env.actions, actorWith(), GUILD, input({ channel: { id: VOICE, type: 4 } }));
		assert.equal(category.state, 'named');
	});

	it('needs a readable server key', async () => {
		const refused = await refusal(addStatChannel(env.actions, actorWith(), '100000000000000077', input()));
		assert.equal(refused.key, 'watch.needsServerKey');
	});

	it('removes by mention, link or bare id, keeps the rename budget, and writes one audit line', async () => {
		for (const [index, text] of [
			`<#${voiceChannel(0)}>`,
			`https://discord.com/channels/${GUILD}/${voiceChannel(1)}`,
			voiceChannel(2),
		].entries()) {
			await addStatChannel(env.actions, actorWith(), GUILD, input({ channel: { id: voiceChannel(index), type: 2 } }));
			assert.deepEqual(await removeStatChannel(env.actions, actorWith(), GUILD, text), {
				channelId: voiceChannel(index),
				removed: true,
			});
		}
		assert.deepEqual(await stored(), []);
		const kept = await watchStoreOf(env.actions).keptRenameBudget(voiceChannel(0));
		assert.deepEqual(kept?.renames, [NOW], 'the rename stays counted against the channel');

		assert.deepEqual(await removeStatChannel(env.actions, actorWith(), GUILD, VOICE), {
			channelId: VOICE,
			removed: false,
		});
		assert.deepEqual(await removeStatChannel(env.actions, actorWith(), GUILD, 'general'), {
			channelId: null,
			removed: false,
		});
		const removals = env.auditLines().filter((line) => line.includes('removed'));
		assert.deepEqual(
			removals,
			[0, 1, 2].map((index) => `<@${ADMIN}> removed the stat channel <#${voiceChannel(index)}> ${WHEN}.`),
		);
	});
});
