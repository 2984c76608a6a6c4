import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { buildAttempt, MAX_BODY_BYTES } from '../../src/webhooks/formats.js';
import { WEBHOOK_FORMATS, type QueuedDelivery } from '../../src/webhooks/webhook-record.js';
import { newSigningSecret } from '../../src/webhooks/webhook-seal.js';

const delivery = (text: string): QueuedDelivery => ({
	v: 1,
	guildId: '1',
	webhookId: 'w',
	eventId: 'msg_abc',
	type: 'report.posted',
	occurredAt: Date.parse('2026-11-29T09:00:00Z'),
	event: {
		server: { id: '1', name: 'Guild' },
		account: 'Acme',
		title: 'Weekly report',
		text,
		figures: { sendsWeek: 1234, text: 5 },
		details: { every: 'weekly' },
	},
	attempts: 0,
	dueAt: 0,
	lastStatus: null,
});

test('every format keeps a body within 32 KB, shortening the text of a huge event', () => {
	for (const format of WEBHOOK_FORMATS) {
		const { body } = buildAttempt(format, delivery('ü'.repeat(100_000)), newSigningSecret(), Date.now());
		assert.ok(Buffer.byteLength(body) <= MAX_BODY_BYTES, `${format}: ${Buffer.byteLength(body)} bytes`);
		JSON.parse(body);
	}
});

test('an event whose other fields alone pass 32 KB still gets a body within it, in every format, and ends', () => {
	const huge = delivery('ü'.repeat(50_000));
	huge.event.details = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`detail${i}`, 'd'.repeat(100)]));
	huge.event.account = 'A'.repeat(40_000);
	huge.event.server.name = 'G'.repeat(40_000);
	for (const format of WEBHOOK_FORMATS) {
		const { body } = buildAttempt(format, huge, newSigningSecret(), Date.now());
		assert.ok(Buffer.byteLength(body) <= MAX_BODY_BYTES, `${format}: ${Buffer.byteLength(body)} bytes`);
		const text = JSON.stringify(JSON.parse(body));
		assert.ok(text.includes('Weekly report'), `${format}: the title is kept`);
	}
});

test('standard: the fixed fields win over a figure of the same name, and the signature verifies', () => {
	const secret = newSigningSecret();
	const { body, headers } = buildAttempt('standard', delivery('hello <@123>'), secret, Date.now());
	const payload = new Webhook(secret).verify(body, headers) as {
		type: string;
		timestamp: string;
		data: Record<string, unknown>;
	};
	assert.equal(payload.type, 'report.posted');
	assert.equal(payload.timestamp, '2026-11-29T09:00:00.000Z');
	assert.equal(payload.data.text, 'hello <@123>');
	assert.equal(payload.data.sendsWeek, 1234);
	assert.deepEqual(payload.data.server, { id: '1', name: 'Guild' });
	assert.equal(headers['webhook-id'], 'msg_abc');
});

test('slack has text and blocks; discord has content, embeds and pings nobody; neither is signed', () => {
	const slack = buildAttempt('slack', delivery('x'), null, Date.now());
	const slackBody = JSON.parse(slack.body) as { text: string; blocks: unknown[] };
	assert.ok(slackBody.text.includes('Weekly report') && slackBody.blocks.length > 0);
	const discord = buildAttempt('discord', delivery('@everyone x'), null, Date.now());
	const discordBody = JSON.parse(discord.body) as { content: string; embeds: unknown[]; allowed_mentions: unknown };
	assert.deepEqual(discordBody.allowed_mentions, { parse: [] });
	assert.equal(discordBody.embeds.length, 1);
	assert.equal(discord.headers['webhook-signature'], undefined);
});
