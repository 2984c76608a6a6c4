import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
	addressRefusal,
	checkWebhookUrl,
	EMPTY_ALLOW_LIST,
	parseAllowList,
	urlHint,
	WebhookUrlRefusedError,
	type Resolve,
} from '../../src/webhooks/address-guard.js';

describe('the webhook address guard', () => {
	test('refuses every range a member must not reach, IPv4 and IPv6 and their embedded forms', () => {
		const table: [string, string | null][] = [
			['127.0.0.1', 'loopback'],
			['127.255.0.9', 'loopback'],
			['10.1.2.3', 'private'],
			['172.16.0.1', 'private'],
			['192.168.1.1', 'private'],
			['169.254.169.254', 'linkLocal'],
			['100.64.0.1', 'shared'],
			['100.127.255.254', 'shared'],
			['198.18.0.1', 'benchmarking'],
			['198.19.255.254', 'benchmarking'],
			['0.1.2.3', 'thisNetwork'],
			['0.0.0.0', 'unspecified'],
			['224.0.0.1', 'multicast'],
			['239.255.255.250', 'multicast'],
			['255.255.255.255', 'reserved'],
			['192.0.2.10', 'reserved'],
			['::1', 'loopback'],
			['::', 'unspecified'],
			['fe80::1', 'linkLocal'],
			['fc00::1', 'private'],
			['fd12:3456::1', 'private'],
			['ff02::1', 'multicast'],
			// IPv4-mapped, NAT64 (64:ff9b::/96), 6to4 (2002::/16) and the old compatible form carrying a refused IPv4.
			['::ffff:127.0.0.1', 'loopback'],
			['::ffff:10.0.0.1', 'private'],
			['::ffff:169.254.169.254', 'linkLocal'],
			['64:ff9b::7f00:1', 'loopback'],
			['64:ff9b::a9fe:a9fe', 'linkLocal'],
			['64:ff9b::6440:1', 'shared'],
			['2002:7f00:1::', 'loopback'],
			['2002:c0a8:101::1', 'private'],
			['2002:c612:1::1', 'benchmarking'],
			['::7f00:1', 'loopback'],
			['2001:db8::1', 'reserved'],
			// Public addresses pass, in every form.
			['8.8.8.8', null],
			['1.1.1.1', null],
			['::ffff:8.8.8.8', null],
			['64:ff9b::808:808', null],
			['2002:808:808::1', null],
			['2606:4700:4700::1111', null],
		];
		for (const [address, reason] of table) assert.equal(addressRefusal(address), reason, address);
	});

	const resolving =
		(answers: Record<string, string[]>): Resolve =>
		async (host) =>
			(answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

	test('a name is refused when any one of its addresses is', async () => {
		const resolve = resolving({ 'mixed.example': ['93.184.216.34', '10.0.0.7'], 'public.example': ['93.184.216.34'] });
		await assert.rejects(
			checkWebhookUrl('https://mixed.example/hook', EMPTY_ALLOW_LIST, resolve),
			(error: unknown) => error instanceof WebhookUrlRefusedError && error.reason === 'private',
		);
		const checked = await checkWebhookUrl('https://public.example/hook', EMPTY_ALLOW_LIST, resolve);
		assert.deepEqual(checked.addresses, [{ address: '93.184.216.34', family: 4 }]);
	});

	test('http:// only for an allowed host; the allow list takes names and CIDRs', async () => {
		const resolve = resolving({ 'public.example': ['93.184.216.34'], 'n8n.internal': ['10.0.0.5'] });
		const reason = async (url: string, allow = EMPTY_ALLOW_LIST) =>
			checkWebhookUrl(url, allow, resolve).then(
				() => null,
				(error: unknown) => (error instanceof WebhookUrlRefusedError ? error.reason : 'other'),
			);
		assert.equal(await reason('http://public.example/hook'), 'httpNotAllowed');
		assert.equal(await reason('http://n8n.internal/hook'), 'private');
		assert.equal(await reason('http://n8n.internal/hook', parseAllowList('n8n.internal')), null);
		assert.equal(await reason('http://n8n.internal/hook', parseAllowList('10.0.0.0/8')), null);
		assert.equal(await reason('http://127.0.0.1:9/hook', parseAllowList('127.0.0.1')), null);
		assert.equal(await reason('https://[::1]/hook'), 'loopback');
		assert.equal(await reason('https://0x7f.1/hook'), 'loopback', 'the URL parser normalises odd IPv4 forms');
		assert.equal(await reason('ftp://public.example/x'), 'invalidUrl');
		assert.equal(await reason('not a url'), 'invalidUrl');
		assert.equal(await reason('https://nowhere.example/'), 'unresolved');
		assert.throws(() => parseAllowList('10.0.0.0/99'), /not a host or CIDR/);
	});

	test('a URL is shown as its host and last 4 characters', () => {
		assert.equal(urlHint('https://hooks.slack.com/services/T000/B000/XXXXsecretZ9y8'), 'hooks.slack.com …Z9y8');
	});
});
