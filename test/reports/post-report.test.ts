import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { postReport } from '../../src/reports/post-due-report.js';
import { ChannelRefusedError } from '../../src/errors.js';
import type { GuildApi } from '../../src/guild-api.js';
import type { ChannelMessage } from '../../src/message.js';
import { buildReportPost, reportNonce } from '../../src/reports/build-report-post.js';
import { createReportStore, type ReportStore } from '../../src/reports/report-store.js';
import { GUILD, openReportContext, REJECTED_KEY, type ReportTestContext } from './report-context.js';
import { makeReport, quietLog } from './records.js';

/** What the Discord front end's postMessage rejects with when Discord refuses the channel. */
const refused = (reason: 'missingPermissions' | 'channelGone') => new ChannelRefusedError(reason);

let env: ReportTestContext;
let reports: ReportStore;
before(async () => {
	env = await openReportContext();
	reports = createReportStore(env.ctx.stores);
});
after(async () => env.close());
beforeEach(async () => {
	await env.ctx.stores.reports.clear();
	env.serverKeys.set(GUILD, 'good-key-0000000000000000');
});

function deps(postMessage: GuildApi['postMessage']) {
	return {
		reports,
		buildPost: async (record: Parameters<typeof buildReportPost>[1]) => buildReportPost(env.ctx, record),
		postMessage,
		now: () => Date.parse('2026-11-30T09:00:00Z'),
		log: quietLog(),
	};
}

describe('posting a due report', () => {
	test('posts the embed and chart with a deterministic nonce of at most 25 characters', async () => {
		const record = makeReport({ every: 'weekly', weekday: 'mon' });
		await reports.put(record);
		const sent: [string, ChannelMessage, string | undefined][] = [];
		const outcome = await postReport(
			deps(async (channelId, message, options) => {
				sent.push([channelId, message, options?.nonce]);
			}),
			record,
			'2026-11-30T09:00',
		);
		assert.equal(outcome, 'posted');
		const [[channelId, message, nonce] = ['', null, undefined]] = sent;
		assert.equal(channelId, record.channelId);
		assert.ok(message && nonce);
		assert.equal(nonce, reportNonce(record, '2026-11-30T09:00'));
		assert.ok(nonce.length <= 25);
		assert.notEqual(nonce, reportNonce(record, '2026-12-07T09:00'));
		assert.equal(message.files?.length, 1);
		assert.equal(message.embeds?.length, 1);
		assert.match(message.content ?? '', /30/, 'weekly reports cover 30 days');
	});

	for (const [label, error, reason] of [
		['a missing permission', refused('missingPermissions'), 'missingPermissions'],
		['a deleted channel', refused('channelGone'), 'channelGone'],
	] as const) {
		test(`${label} pauses the report with the reason, and the scheduler skips it afterwards`, async () => {
			const record = makeReport();
			await reports.put(record);
			let calls = 0;
			const outcome = await postReport(
				deps(async () => {
					calls += 1;
					throw error;
				}),
				record,
				'2026-11-30T09:00',
			);
			assert.equal(typeof outcome, 'object');
			const stored = await reports.get(record.guildId, record.channelId);
			assert.equal(stored?.paused?.reason, reason);
			if (reason === 'missingPermissions') {
				assert.deepEqual(stored?.paused?.permissions, ['viewChannel', 'sendMessages', 'embedLinks', 'attachFiles']);
			}
			assert.equal(
				await postReport(
					deps(async () => assert.fail('no retry')),
					record,
					'2026-12-01T09:00',
				),
				'skipped',
			);
			assert.equal(calls, 1);
		});
	}

	test('a rejected or missing server key pauses without calling Discord', async () => {
		const record = makeReport();
		await reports.put(record);
		env.serverKeys.set(GUILD, REJECTED_KEY);
		const never = deps(async () => assert.fail('nothing is posted'));
		await postReport(never, record, 'a');
		assert.equal((await reports.get(record.guildId, record.channelId))?.paused?.reason, 'keyRejected');
		await reports.put(record);
		env.serverKeys.delete(GUILD);
		await postReport(never, record, 'b');
		assert.equal((await reports.get(record.guildId, record.channelId))?.paused?.reason, 'noServerKey');
	});

	test('other failures propagate and leave the report active', async () => {
		const record = makeReport();
		await reports.put(record);
		await assert.rejects(
			postReport(
				deps(async () => Promise.reject(new Error('Discord refused'))),
				record,
				'a',
			),
			/Discord refused/,
		);
		assert.equal((await reports.get(record.guildId, record.channelId))?.paused, null);
	});

	test('a report removed or rescheduled since the scan is not posted', async () => {
		const record = makeReport();
		const never = deps(async () => assert.fail('nothing is posted'));
		assert.equal(await postReport(never, record, 'a'), 'skipped');
		await reports.put({ ...record, hour: 10 });
		assert.equal(await postReport(never, record, 'a'), 'skipped');
	});
});
