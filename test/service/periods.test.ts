import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
	openStatsStore,
	startStatsServer,
	type StatsBody,
	type StatsEvent,
	type StatsStore,
} from '../../src/service/index.js';
import { makeTempDir, sendRequest } from './support.js';

// Saturday 2026-11-21; the weekly period starts 2026-11-15, the monthly one 2026-10-23.
const NOW = new Date('2026-11-21T09:30:12.123Z');
const send = (at: string, ok = true): StatsEvent => ({ type: 'send', ok, at });
const join_ = (at: string): StatsEvent => ({ type: 'join', at });

describe('stats periods with a pinned clock', () => {
	const temp = makeTempDir('stats-periods');
	let store: StatsStore;
	let body: StatsBody;

	before(() => {
		store = openStatsStore(join(temp.dir, 'service.sqlite'));
		store.createAccount('edges');
		store.importEvents('edges', [
			send('2026-11-21T00:00:00.000Z'), // first instant of today
			send('2026-11-21T09:30:12.123Z'), // exactly now
			send('2026-11-20T23:59:59.999Z'), // last instant of yesterday
			send('2026-11-15T00:00:00.000Z'), // first instant of the weekly period
			send('2026-11-14T23:59:59.999Z'), // just before it
			send('2026-10-23T00:00:00.000Z'), // first instant of the monthly period
			send('2026-10-22T23:59:59.999Z'), // just before it: all time only
			send('2026-11-21T01:00:00+02:00'), // 2026-11-20T23:00Z: an offset moves it to yesterday
			send('2026-11-21T05:00:00Z', false), // failed: counted in failed_all_time only
			send('2026-09-01T12:00:00Z', false),
			join_('2026-11-21T00:00:00.000Z'),
			join_('2026-11-14T23:59:59.999Z'),
			join_('2026-10-22T23:59:59.999Z'),
		]);
		body = store.computeStats('edges', NOW);
	});
	after(() => {
		store.close();
		temp.cleanup();
	});

	test('today starts at 00:00:00.000 UTC: 23:59:59.999 the day before is not today', () => {
		assert.equal(body.data.sends.today, 2);
		assert.equal(body.data.joins.today, 1);
	});

	test('weekly is the last 7 UTC days including today', () => {
		assert.equal(body.data.sends.weekly, 5);
		assert.equal(body.data.joins.weekly, 1);
	});

	test('monthly is the last 30 UTC days including today', () => {
		assert.equal(body.data.sends.monthly, 7);
		assert.equal(body.data.joins.monthly, 2);
	});

	test('all time counts every successful send and join; failed sends only in failed_all_time', () => {
		assert.equal(body.data.sends.all_time, 8);
		assert.equal(body.data.sends.failed_all_time, 2);
		assert.equal(body.data.joins.all_time, 3);
	});

	test('daily_breakdown is 30 days oldest first, zero-filled, successful sends only', () => {
		const breakdown = body.data.sends.daily_breakdown;
		assert.equal(breakdown.length, 30);
		assert.deepEqual(breakdown[0], { date: '2026-10-23', sends: 1 });
		assert.deepEqual(breakdown.at(-1), { date: '2026-11-21', sends: 2 });
		const nonZero = breakdown.filter((entry) => entry.sends > 0);
		assert.deepEqual(nonZero, [
			{ date: '2026-10-23', sends: 1 },
			{ date: '2026-11-14', sends: 1 },
			{ date: '2026-11-15', sends: 1 },
			{ date: '2026-11-20', sends: 2 },
			{ date: '2026-11-21', sends: 2 },
		]);
		assert.equal(
			breakdown.reduce((sum, entry) => sum + entry.sends, 0),
			body.data.sends.monthly,
		);
	});

	test('an account without events gets zeros everywhere and a full breakdown', () => {
		store.createAccount('quiet');
		const quiet = store.computeStats('quiet', NOW).data;
		assert.deepEqual([quiet.sends.today, quiet.sends.weekly, quiet.sends.monthly, quiet.sends.all_time], [0, 0, 0, 0]);
		assert.equal(quiet.sends.daily_breakdown.length, 30);
		assert.ok(quiet.sends.daily_breakdown.every((entry) => entry.sends === 0));
	});

	test('the roll-ups give the same answer as aggregating the raw events', () => {
		assert.deepEqual(store.computeStatsFromRawEvents('edges', NOW), body);
	});

	test('the next day moves every window by one day', () => {
		const tomorrow = store.computeStats('edges', new Date('2026-11-22T00:00:00.000Z')).data.sends;
		assert.equal(tomorrow.today, 0);
		assert.equal(tomorrow.weekly, 4);
		assert.equal(tomorrow.monthly, 6);
		assert.equal(tomorrow.daily_breakdown[0]?.date, '2026-10-24');
	});

	test('the server answers with the pinned clock, generated_at included', async (t) => {
		const { apiKey } = store.createAccount('edges-http');
		store.importEvents('edges-http', [send('2026-11-21T00:00:00Z'), send('2026-11-20T23:59:59.999Z')]);
		const server = await startStatsServer({ store, now: () => NOW });
		t.after(() => server.close());
		const response = await sendRequest(server.url, { headers: { Authorization: `Bearer ${apiKey}` } });
		const data = (JSON.parse(response.body) as StatsBody).data;
		assert.equal(data.meta.generated_at, '2026-11-21T09:30:12.123000+00:00');
		assert.deepEqual([data.sends.today, data.sends.weekly], [1, 2]);
	});
});
