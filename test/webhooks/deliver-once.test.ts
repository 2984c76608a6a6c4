// One attempt against a loopback receiver that misbehaves after its status line: a 2xx whose body never ends is
// delivered (sending it again would duplicate the event), a 500 whose body never ends is a timeout.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { parseAllowList, systemResolve } from '../../src/webhooks/address-guard.js';
import { deliverOnce } from '../../src/webhooks/deliver.js';

let server: Server;
let base = '';
const stalled = new Set<import('node:http').ServerResponse>();

before(async () => {
	server = createServer((req, res) => {
		req.resume();
		const status = Number(req.url?.slice(1)) || 200;
		// The status line and a first chunk go out; the rest of the body never comes.
		res.writeHead(status, { 'content-type': 'text/plain' });
		res.flushHeaders();
		res.write('partial');
		stalled.add(res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
	for (const res of stalled) res.destroy();
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

const options = { allow: parseAllowList('127.0.0.1'), resolve: systemResolve, timeoutMs: 2000 };
const attempt = { body: '{}', headers: { 'content-type': 'application/json' } };

test('a 2xx whose body stalls is delivered, at once, not timed out and sent again', async () => {
	const started = Date.now();
	const result = await deliverOnce(`${base}/202`, attempt, options);
	assert.deepEqual(result, { kind: 'delivered', status: 202 });
	assert.ok(Date.now() - started < options.timeoutMs, 'the body was not waited for');
});

test('a 500 whose body stalls is a timeout, retried later', async () => {
	const result = await deliverOnce(`${base}/500`, attempt, { ...options, timeoutMs: 300 });
	assert.equal(result.kind, 'failed');
	assert.equal(result.kind === 'failed' && result.failure, 'timeout');
});
