// `/webhook` through the real bot and the Discord stand-in: the URL typed into a modal (never an option), the
// signing secret shown once in the private reply, lists naming host and last 4 only, `test` saying the status code
// and never the body; the URL in clear in no reply, log line or stored byte.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { ADMIN_PERMISSIONS, EPHEMERAL, readStoreBytes, startHarness, type Harness } from '../app/harness.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

let harness: Harness;
let receiver: Receiver;
let guildId: string;
const replies: string[] = [];
const SECRET_PATH = '/services/T0001/B0002/q9Zx';

before(async () => {
	receiver = await startReceiver();
	harness = await startHarness({ guildCount: 1, env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' } });
	guildId = harness.sandbox.guilds[0]!.id;
});
after(async () => {
	await harness?.close();
	await receiver?.close();
});

const command = (
	subcommand: string,
	options: { name: string; type: number; value: string }[] = [],
	permissions = ADMIN_PERMISSIONS,
) => harness.sandbox.dispatchCommand({ name: 'webhook', subcommand, guildId, permissions, options });

async function addViaModal(url: string, format: string) {
	const opened = command('add', [{ name: 'format', type: 3, value: format }]);
	const modal = await opened.firstResponse();
	assert.equal(modal.type, 9, 'a modal, the first response');
	const submit = harness.sandbox.dispatchModalSubmit({
		customId: String(modal.data.custom_id),
		fields: { url },
		guildId,
		permissions: ADMIN_PERMISSIONS,
	});
	const message = await submit.finalMessage();
	replies.push(message.content ?? '');
	return message;
}

test('the definition has no URL option: the URL goes into a form', () => {
	const webhook = commandDefinitions.find((definition) => definition.name === 'webhook')!.toJSON();
	const names = JSON.stringify(webhook.options);
	assert.ok(!/"name":"url"/.test(names));
	assert.deepEqual(
		webhook.options?.map((option) => option.name),
		['add', 'remove', 'list', 'test'],
	);
});

test('add, list, test and remove, the secret shown once and the URL never', async () => {
	const added = await addViaModal(receiver.url(SECRET_PATH), 'standard');
	assert.equal(added.flags & EPHEMERAL, EPHEMERAL, 'private');
	const secret = /`(whsec_[A-Za-z0-9+/]+={0,2})`/.exec(added.content ?? '')?.[1];
	assert.ok(secret, added.content);
	assert.ok(added.content?.includes('127.0.0.1:') && added.content.includes('…q9Zx'), added.content);

	const list = await command('list').finalMessage();
	replies.push(list.content ?? '');
	assert.ok(list.content?.includes(`127.0.0.1:${receiver.port} …q9Zx`), list.content);
	assert.ok(!list.content?.includes(secret), 'the secret is never shown again');

	const choices = await harness.sandbox
		.dispatchCommand({
			name: 'webhook',
			subcommand: 'test',
			guildId,
			permissions: ADMIN_PERMISSIONS,
			autocomplete: true,
			options: [{ name: 'webhook', type: 3, value: '', focused: true }],
		})
		.firstResponse();
	const choice = ((choices.data.choices ?? []) as { name: string; value: string }[])[0]!;
	assert.ok(choice?.name.includes('…q9Zx'), JSON.stringify(choices.data));

	receiver.answer({ status: 202, body: 'body-the-bot-never-shows' });
	const tested = await command('test', [{ name: 'webhook', type: 3, value: choice.value }]).finalMessage();
	replies.push(tested.content ?? '');
	assert.ok(tested.content?.includes('202'), tested.content);
	assert.ok(!tested.content?.includes('body-the-bot-never-shows'));
	const ping = receiver.received.at(-1)!;
	const verified = new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>) as { type: string };
	assert.equal(verified.type, 'ping');

	const denied = await command('list', [], '0').finalMessage();
	assert.ok(!denied.content?.includes('q9Zx'), 'Manage Server re-checked');

	const removed = await command('remove', [{ name: 'webhook', type: 3, value: choice.value }]).finalMessage();
	replies.push(removed.content ?? '');
	assert.ok(removed.content?.includes('…q9Zx'), removed.content);

	for (const text of [...replies, ...harness.logs]) assert.ok(!text.includes(SECRET_PATH), `in clear: ${text}`);
	const stored = readStoreBytes(harness);
	assert.ok(!stored.includes(SECRET_PATH) && !stored.includes('B0002'), 'the URL is sealed in the store');
	assert.ok(!stored.includes(secret.slice(6, 30)), 'the secret is sealed in the store');
	assert.deepEqual(harness.sandbox.violations, []);
});

test('a URL pointing at a loopback or private address the allow list does not name is refused with the reason, and nothing is stored', async () => {
	const refused = await addViaModal('https://127.0.0.2/hook', 'slack');
	assert.match(refused.content ?? '', /loopback/);
	const refusedPrivate = await addViaModal('https://10.0.0.1/hook', 'discord');
	assert.match(refusedPrivate.content ?? '', /private network/);
	const list = await command('list').finalMessage();
	assert.match(list.content ?? '', /No webhooks yet/);
});
