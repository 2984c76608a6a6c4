import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import {
	openStatsStore,
	startStatsServer,
	type RunningStatsServer,
	type StatsBody,
	type StatsStore,
} from '../../src/service/index.js';
import { makeTempDir, sendRequest, type RawResponse } from './support.js';

const count = { type: 'integer', minimum: 0 };
// Every field of the seed (000_d155998611cc6e27.txt) with its type; extra fields would be allowed by the seed
// but this service sends none, so the schema forbids them to catch typos in field names.
const STATS_SCHEMA = {
	type: 'object',
	additionalProperties: false,
	required: ['data'],
	properties: {
		data: {
			type: 'object',
			additionalProperties: false,
			required: ['sends', 'joins', 'meta'],
			properties: {
				sends: {
					type: 'object',
					additionalProperties: false,
					required: ['today', 'weekly', 'monthly', 'all_time', 'failed_all_time', 'daily_breakdown'],
					properties: {
						today: count,
						weekly: count,
						monthly: count,
						all_time: count,
						failed_all_time: count,
						daily_breakdown: {
							type: 'array',
							minItems: 30,
							maxItems: 30,
							items: {
								type: 'object',
								additionalProperties: false,
								required: ['date', 'sends'],
								properties: { date: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\d$' }, sends: count },
							},
						},
					},
				},
				joins: {
					type: 'object',
					additionalProperties: false,
					required: ['today', 'weekly', 'monthly', 'all_time'],
					properties: { today: count, weekly: count, monthly: count, all_time: count },
				},
				meta: {
					type: 'object',
					additionalProperties: false,
					required: ['generated_at', 'user'],
					properties: {
						generated_at: { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00:00$' },
						user: { type: 'string', minLength: 1 },
					},
				},
			},
		},
	},
};
const validateStats = new Ajv({ allErrors: true }).compile(STATS_SCHEMA);

function assertJsonError(response: RawResponse, status: number, code: string): void {
	assert.equal(response.status, status, response.body);
	assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
	assert.equal(response.headers['cache-control'], 'no-store');
	const body = JSON.parse(response.body) as { error: { code: string; message: string } };
	assert.deepEqual(Object.keys(body), ['error']);
	assert.equal(body.error.code, code);
	assert.equal(typeof body.error.message, 'string');
	assert.ok(body.error.message.length > 0);
}

describe('stats service contract', () => {
	const temp = makeTempDir('stats-contract');
	let store: StatsStore;
	let server: RunningStatsServer;
	let apiKey: string;
	let revokedKey: string;
	const bearer = () => ({ Authorization: `Bearer ${apiKey}` });

	before(async () => {
		store = openStatsStore(join(temp.dir, 'service.sqlite'));
		apiKey = store.createAccount('acme-ads').apiKey;
		revokedKey = store.createAccount('gone').apiKey;
		store.revokeAccount('gone');
		store.importEvents('acme-ads', [
			{ type: 'send', ok: true, at: '2026-11-21T08:00:00Z' },
			{ type: 'send', ok: false, at: '2026-11-20T08:00:00Z' },
			{ type: 'join', at: '2026-11-19T08:00:00+02:00' },
		]);
		server = await startStatsServer({ store, rateLimitPerMinute: 0 });
	});
	after(async () => {
		await server.close();
		store.close();
		temp.cleanup();
	});

	test('a valid key gets 200 with every field of the seed, typed and formatted as the seed says', async () => {
		const response = await sendRequest(server.url, { headers: bearer() });
		assert.equal(response.status, 200);
		assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
		assert.equal(response.headers['cache-control'], 'no-store');
		const parsed: unknown = JSON.parse(response.body);
		assert.ok(validateStats(parsed), JSON.stringify(validateStats.errors));
		const body = JSON.parse(response.body) as StatsBody;
		assert.equal(body.data.meta.user, 'acme-ads');
		assert.deepEqual([body.data.sends.all_time, body.data.sends.failed_all_time, body.data.joins.all_time], [1, 1, 1]);
	});

	test('daily_breakdown holds 30 consecutive dates, oldest first, ending today (UTC)', async () => {
		const todayBefore = new Date().toISOString().slice(0, 10);
		const body = JSON.parse((await sendRequest(server.url, { headers: bearer() })).body);
		const dates: string[] = body.data.sends.daily_breakdown.map((entry: { date: string }) => entry.date);
		// A request may cross 00:00 UTC: either side's day is "today".
		assert.ok([todayBefore, new Date().toISOString().slice(0, 10)].includes(dates.at(-1) ?? ''), dates.at(-1));
		for (let i = 1; i < dates.length; i += 1) {
			assert.equal(Date.parse(`${dates[i]}T00:00:00Z`) - Date.parse(`${dates[i - 1]}T00:00:00Z`), 86_400_000);
		}
	});

	test('generated_at carries real microseconds from the wall clock', async () => {
		const before = Date.now();
		const body = JSON.parse((await sendRequest(server.url, { headers: bearer() })).body);
		const generatedAt = Date.parse(body.data.meta.generated_at.replace(/(\.\d{3})\d{3}/, '$1'));
		// Its milliseconds are Date.now()'s; 50 ms of slack only absorbs clock steps, not timer drift.
		assert.ok(generatedAt >= before - 50 && generatedAt <= Date.now() + 50, body.data.meta.generated_at);
	});

	test('the scheme is matched case-insensitively and a query string is ignored', async () => {
		const response = await sendRequest(server.url, {
			path: '/api/v1/stats?days=7&x',
			headers: { Authorization: `bearer ${apiKey}` },
		});
		assert.equal(response.status, 200);
		assert.equal(JSON.parse(response.body).data.meta.user, 'acme-ads');
	});

	test('a trailing slash is served like the path without it', async () => {
		const response = await sendRequest(server.url, { path: '/api/v1/stats/', headers: bearer() });
		assert.equal(response.status, 200);
	});

	test('HEAD answers with the headers of GET and no body', async () => {
		const get = await sendRequest(server.url, { headers: bearer() });
		const head = await sendRequest(server.url, { method: 'HEAD', headers: bearer() });
		assert.equal(head.status, 200);
		assert.equal(head.body, '');
		assert.equal(head.headers['content-type'], get.headers['content-type']);
		assert.equal(head.headers['content-length'], get.headers['content-length']);
	});

	const rejected: [string, Record<string, string>][] = [
		['no Authorization header', {}],
		['an empty Authorization header', { Authorization: '' }],
		['a Basic scheme', { Authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' }],
		['a bare key without a scheme', { Authorization: 'ask_0123456789abcdef0123456789abcdef01234567' }],
		['Bearer without a key', { Authorization: 'Bearer ' }],
		['Bearer with two words', { Authorization: 'Bearer a b' }],
		['an unknown key', { Authorization: 'Bearer ask_0123456789abcdef0123456789abcdef01234567' }],
		['a 5 KB key', { Authorization: `Bearer ${'k'.repeat(5000)}` }],
	];
	for (const [what, headers] of rejected) {
		test(`${what} gets 401 unauthorized with a Bearer challenge`, async () => {
			const response = await sendRequest(server.url, { headers });
			assertJsonError(response, 401, 'unauthorized');
			assert.match(String(response.headers['www-authenticate']), /^Bearer\b/);
		});
	}

	test('a revoked key gets 401 and the error names no key', async () => {
		const response = await sendRequest(server.url, { headers: { Authorization: `Bearer ${revokedKey}` } });
		assertJsonError(response, 401, 'unauthorized');
		assert.ok(!response.body.includes(revokedKey));
	});

	test('HEAD of a refused request carries the error headers and no body', async () => {
		const response = await sendRequest(server.url, { method: 'HEAD' });
		assert.equal(response.status, 401);
		assert.equal(response.body, '');
		assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
	});

	test('headers over 8 KB get 431 with a JSON error, and the server goes on serving', async () => {
		const response = await sendRequest(server.url, { headers: { Authorization: `Bearer ${'k'.repeat(20_000)}` } });
		assertJsonError(response, 431, 'request_header_fields_too_large');
		assert.equal((await sendRequest(server.url, { headers: bearer() })).status, 200);
	});

	for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
		test(`${method} gets 405 with Allow: GET, HEAD`, async () => {
			const response = await sendRequest(server.url, { method, headers: bearer() });
			assertJsonError(response, 405, 'method_not_allowed');
			assert.equal(response.headers.allow, 'GET, HEAD');
		});
	}

	for (const path of [
		'/',
		'/api/v1',
		'/api/v1/statsx',
		'/api/v2/stats',
		'/API/V1/STATS',
		'/api/v1/stats//',
		'//api/v1/stats',
		'/api/v1/%73tats',
	]) {
		test(`the path ${path} gets 404 not_found`, async () => {
			assertJsonError(await sendRequest(server.url, { path, headers: bearer() }), 404, 'not_found');
		});
	}

	test('a storage failure gets 500 internal, not a crash', async (t) => {
		const broken = openStatsStore(join(temp.dir, 'broken.sqlite'));
		const key = broken.createAccount('x').apiKey;
		const errors: unknown[] = [];
		const brokenServer = await startStatsServer({ store: broken, onError: (error) => errors.push(error) });
		t.after(() => brokenServer.close());
		broken.close();
		assertJsonError(
			await sendRequest(brokenServer.url, { headers: { Authorization: `Bearer ${key}` } }),
			500,
			'internal',
		);
		assert.equal(errors.length, 1);
	});

	test('in unreleased mode every stats request gets 503 feature_unavailable', async (t) => {
		const unreleased = await startStatsServer({ store, unreleased: true });
		t.after(() => unreleased.close());
		assertJsonError(await sendRequest(unreleased.url, { headers: bearer() }), 503, 'feature_unavailable');
		assertJsonError(await sendRequest(unreleased.url), 503, 'feature_unavailable');
	});

	test('past N requests a minute a key gets 429 rate_limited with Retry-After; other keys are unaffected', async (t) => {
		const limited = await startStatsServer({ store, rateLimitPerMinute: 3 });
		t.after(() => limited.close());
		for (let i = 0; i < 3; i += 1) assert.equal((await sendRequest(limited.url, { headers: bearer() })).status, 200);
		const response = await sendRequest(limited.url, { headers: bearer() });
		assertJsonError(response, 429, 'rate_limited');
		assert.equal(response.headers['retry-after'], '20');
		const otherKey = store.createAccount('other').apiKey;
		assert.equal((await sendRequest(limited.url, { headers: { Authorization: `Bearer ${otherKey}` } })).status, 200);
	});

	test('close() ends idle keep-alive connections so it resolves promptly', async () => {
		const own = await startStatsServer({ store });
		const agentResponse = await fetch(`${own.url}/api/v1/stats`, { headers: bearer() });
		await agentResponse.text();
		const started = Date.now();
		await own.close();
		// An idle keep-alive connection left to time out would hold close() for 4-5 s; 3 s allows a loaded machine.
		assert.ok(Date.now() - started < 3000, `close() took ${Date.now() - started} ms`);
	});
});
