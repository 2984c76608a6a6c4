import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import Keyv from 'keyv';
import { createStatsClient } from '../../src/stats-api/client.js';
import { DEFAULT_USER_AGENT } from '../../src/stats-api/http.js';
import { validBody } from './fault-server.js';

const KEY = 'sk_live_Q7fJx2LmP9wRt4ZkV8nB';
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
	version: string;
};

interface Recorded {
	method: string | undefined;
	url: string | undefined;
	headers: IncomingHttpHeaders;
}

let recorded: Recorded[] = [];
const upstream = createServer((req, res) => {
	recorded.push({ method: req.method, url: req.url, headers: req.headers });
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(JSON.stringify(validBody()));
});
let origin: string;

before(async () => {
	await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
	origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

beforeEach(() => {
	recorded = [];
});

after(async () => {
	upstream.closeAllConnections();
	await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** Verifies KEY through a fresh client on `baseUrl` and returns what the endpoint received. */
async function requestSeenFor(baseUrl: string): Promise<Recorded> {
	const stats = createStatsClient({
		baseUrl,
		timeoutMs: 2000,
		cacheTtlSeconds: 0,
		cache: new Keyv(),
		cacheSecret: Buffer.alloc(32, 3),
	});
	try {
		await stats.verifyKey(KEY);
	} finally {
		await stats.close();
	}
	assert.equal(recorded.length, 1);
	return recorded[0] as Recorded;
}

// Written out, not read back from package.json: a renamed package or a lost version must fail here, where the
// code and this test would otherwise agree on `undefined/undefined`.
const USER_AGENT = /^adstats-discord-bot\/(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;

test('the default User-Agent names the bot and its package.json version, nothing else', () => {
	const version = USER_AGENT.exec(DEFAULT_USER_AGENT)?.[1];
	assert.ok(version, `${DEFAULT_USER_AGENT} is not adstats-discord-bot/<semver>`);
	assert.equal(version, packageJson.version, 'the version is the one package.json declares');
});

test('the client sends GET /api/v1/stats with the bearer key, JSON headers and its User-Agent', async () => {
	const seen = await requestSeenFor(origin);
	assert.equal(seen.method, 'GET');
	assert.equal(seen.url, '/api/v1/stats');
	assert.equal(seen.headers.authorization, `Bearer ${KEY}`);
	assert.equal(seen.headers.accept, 'application/json');
	assert.equal(seen.headers['content-type'], 'application/json');
	assert.match(seen.headers['user-agent'] ?? '', USER_AGENT);
	assert.equal(seen.headers['user-agent'], DEFAULT_USER_AGENT);
});

test('a base URL with a trailing slash does not double the slash', async () => {
	assert.equal((await requestSeenFor(`${origin}/`)).url, '/api/v1/stats');
});

test('a base URL with a path prefix keeps the prefix', async () => {
	assert.equal((await requestSeenFor(`${origin}/prefix/`)).url, '/prefix/api/v1/stats');
	recorded = [];
	assert.equal((await requestSeenFor(`${origin}/prefix`)).url, '/prefix/api/v1/stats');
});
