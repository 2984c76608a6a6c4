import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startDiscordSandbox, type DiscordSandbox } from '../../sandbox/index.js';
import { postReport } from '../../src/reports/post-due-report.js';
import { buildReportPost } from '../../src/reports/build-report-post.js';
import { createReportStore } from '../../src/reports/report-store.js';
import { botGuildApi, createBotRest } from '../../src/discord/bot-rest.js';
import { GUILD, openReportContext, type ReportTestContext } from './report-context.js';
import { makeReport, quietLog } from './records.js';

let sandbox: DiscordSandbox;
let env: ReportTestContext;
before(async () => {
	sandbox = await startDiscordSandbox();
	env = await openReportContext();
	env.serverKeys.set(GUILD, 'good-key-0000000000000000');
});
after(async () => {
	await env.close();
	await sandbox.close();
});

test('a report post passes the Discord stand-in: embed, chart attachment, nonce; an unknown channel pauses it', async () => {
	const reports = createReportStore(env.ctx.stores);
	const channelId = sandbox.guilds[0]?.defaultChannelId ?? '';
	const deps = {
		reports,
		buildPost: async (record: Parameters<typeof buildReportPost>[1]) => buildReportPost(env.ctx, record),
		postMessage: botGuildApi(createBotRest({ discordApiUrl: sandbox.apiUrl, discordToken: sandbox.token })).postMessage,
		now: () => Date.parse('2026-11-30T09:00:00Z'),
		log: quietLog(),
	};
	const record = makeReport({ channelId });
	await reports.put(record);
	assert.equal(await postReport(deps, record, '2026-11-30T09:00'), 'posted');
	assert.deepEqual(sandbox.violations, []);
	const [message] = sandbox.channelMessages(channelId);
	assert.ok(message);
	assert.equal(message.embeds.length, 1);
	assert.equal(message.attachments.length, 1);
	assert.match(message.content, /Daily report/);

	const gone = makeReport({ channelId: '999999999999999999' });
	await reports.put(gone);
	const outcome = await postReport(deps, gone, '2026-11-30T09:00');
	assert.deepEqual(outcome, { paused: { reason: 'channelGone', at: Date.parse('2026-11-30T09:00:00Z') } });
	assert.equal((await reports.get(GUILD, gone.channelId))?.paused?.reason, 'channelGone');
});
