// `/report remove` on a report whose channel was deleted, through the real bot and the Discord stand-in: the
// channel picker cannot offer a deleted channel, so the option is a string whose autocomplete lists the
// server's report channels by name, the deleted ones included.
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { createReportStore, type ReportStore } from '../../src/reports/report-store.js';
import { ADMIN_PERMISSIONS, EPHEMERAL, startHarness, type Harness } from '../app/harness.js';
import { makeReport } from './records.js';

/** A channel id of no channel in the stand-in: Discord answers 404 Unknown Channel, as for a deleted one. */
const DELETED_CHANNEL = '499999999999999999';

let harness: Harness;
let reports: ReportStore;
let guildId: string;
let liveChannel: string;
before(async () => {
	harness = await startHarness({ guildCount: 1 });
	reports = createReportStore(harness.bot.ctx.stores);
	guildId = harness.sandbox.guilds[0]!.id;
	liveChannel = harness.sandbox.guilds[0]!.defaultChannelId;
});
after(async () => harness.close());
beforeEach(async () => {
	await harness.bot.ctx.stores.reports.clear();
	await reports.put(makeReport({ guildId, channelId: liveChannel, every: 'weekly', weekday: 'fri', hour: 7 }));
	// Paused by its last due time, when Discord answered 404 for the channel.
	await reports.put(
		makeReport({ guildId, channelId: DELETED_CHANNEL, paused: { reason: 'channelGone', at: Date.now() } }),
	);
});

const autocomplete = async (value: string, permissions = ADMIN_PERMISSIONS) => {
	const handle = harness.sandbox.dispatchCommand({
		name: 'report',
		subcommand: 'remove',
		guildId,
		permissions,
		autocomplete: true,
		options: [{ name: 'channel', type: 3, value, focused: true }],
	});
	const response = await handle.firstResponse();
	assert.equal(response.type, 8, 'answered with autocomplete choices');
	return (response.data.choices ?? []) as { name: string; value: string }[];
};

const remove = (value: string) =>
	harness.sandbox
		.dispatchCommand({
			name: 'report',
			subcommand: 'remove',
			guildId,
			permissions: ADMIN_PERMISSIONS,
			options: [{ name: 'channel', type: 3, value }],
		})
		.finalMessage();

test('the autocomplete lists every report channel by name, a deleted one as deleted', async () => {
	// Deleted since its last post: not paused yet, Discord says it is gone.
	const deletedLately = '499999999999999998';
	await reports.put(makeReport({ guildId, channelId: deletedLately, hour: 18 }));
	assert.deepEqual(await autocomplete(''), [
		{ name: `deleted channel (${deletedLately}): daily at 18:00 (UTC), last 7 days`, value: deletedLately },
		{ name: `deleted channel (${DELETED_CHANNEL}): daily at 09:00 (UTC), last 7 days`, value: DELETED_CHANNEL },
		{ name: '#channel-1: weekly on Friday at 07:00 (UTC), last 30 days', value: liveChannel },
	]);
	assert.deepEqual(
		(await autocomplete('#Channel-1')).map((choice) => choice.value),
		[liveChannel],
	);
	assert.deepEqual(await autocomplete('', '0'), [], 'nothing for a member without Manage Server');
	assert.deepEqual(harness.sandbox.violations, []);
});

test("the deleted channel's report is removed by the choice's value", async () => {
	const reply = await remove(DELETED_CHANNEL);
	assert.equal(reply.flags & EPHEMERAL, EPHEMERAL);
	assert.equal(reply.content, `Removed the report for <#${DELETED_CHANNEL}>.`);
	assert.deepEqual(
		(await reports.listServer(guildId)).map((record) => record.channelId),
		[liveChannel],
	);
	assert.deepEqual(harness.sandbox.violations, []);
});

test('a typed name or mention works too; a name of no report channel says to pick from the list', async () => {
	assert.equal((await remove('#channel-1')).content, `Removed the report for <#${liveChannel}>.`);
	assert.equal((await remove(`<#${DELETED_CHANNEL}>`)).content, `Removed the report for <#${DELETED_CHANNEL}>.`);
	assert.match((await remove('general')).content, /Pick the channel from the list `\/report remove` offers/);
	assert.deepEqual(await reports.listServer(guildId), []);
});
