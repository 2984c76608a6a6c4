// /privacy end to end: the real bot, the Discord stand-in and the bundled stats service. Private replies in the
// member's language, in a server and in a DM; the export file; delete behind a 60 s button only its member can press.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONFIRMATION_MS } from '../../commands/privacy.js';
import { createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';

const MEMBER = '320000000000000201';
const STRANGER = '320000000000000202';

describe('/privacy', () => {
	let h: Harness;
	let apiKey = '';
	const guild = () => h.sandbox.guilds[0]!;
	const privacy = (subcommand: string, where: { userId?: string; guildId?: string | null; locale?: string } = {}) =>
		h.sandbox.dispatchCommand({ name: 'privacy', subcommand, userId: MEMBER, guildId: guild().id, ...where });
	const deleteButton = (components: unknown) => /privacy:delete:\d+:\d+/u.exec(JSON.stringify(components))?.[0];

	before(async () => {
		h = await startHarness();
		apiKey = createAccount(h, 'Privacy_Member');
		await linkViaModal(h, apiKey, { userId: MEMBER, guildId: guild().id });
		const on = await h.sandbox
			.dispatchCommand({ name: 'digest', subcommand: 'on', userId: MEMBER, locale: 'en-US' })
			.finalMessage();
		assert.match(on.content, /digest/iu);
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	it('show lists what the bot holds, privately, in a server and in Japanese in a DM', async () => {
		const shown = await privacy('show').finalMessage();
		assert.ok(shown.isEphemeral);
		assert.match(shown.content, /^\*\*What the bot holds about you\*\*\n/u);
		assert.match(shown.content, new RegExp(`- Your link: 1 — Privacy_Member …${apiKey.slice(-4)} \\(`, 'u'));
		assert.match(shown.content, /- Your digest \(with the language last seen\): 1/u);
		assert.ok(!shown.content.includes(apiKey));
		const inDm = await privacy('show', { guildId: null, locale: 'ja' }).finalMessage();
		assert.match(inDm.content, /^\*\*ボットが保存しているあなたのデータ\*\*\n/u);
		assert.match(inDm.content, /- あなたの連携: 1/u);
	});

	it('export answers with adstats-my-data-<date>.json, never the key', async () => {
		const message = await privacy('export').finalMessage();
		assert.ok(message.isEphemeral);
		const [file] = message.files;
		assert.ok(file);
		assert.match(file.name, /^adstats-my-data-\d{4}-\d{2}-\d{2}\.json$/u);
		const text = file.bytes.toString('utf8');
		assert.ok(!text.includes(apiKey));
		const exported = JSON.parse(text) as { user_id: string; records: { kind: string; keyHint?: string }[] };
		assert.equal(exported.user_id, MEMBER);
		assert.equal(exported.records.find((record) => record.kind === 'link')?.keyHint, apiKey.slice(-4));
		assert.ok(exported.records.some((record) => record.kind === 'digest'));
	});

	it('delete asks first; only its member can press, only within 60 s; then nothing is left and says so', async () => {
		const asked = await privacy('delete').finalMessage();
		assert.ok(asked.isEphemeral);
		assert.match(asked.content, /cannot be undone/u);
		const customId = deleteButton(asked.components) ?? '';
		assert.ok(customId.startsWith(`privacy:delete:${MEMBER}:`), customId);
		const expiresAt = Number(customId.split(':')[3]);
		assert.ok(Math.abs(expiresAt - (h.now() + CONFIRMATION_MS)) < 10_000, 'valid for 60 s');

		const stranger = await h.sandbox
			.dispatchButton({ customId, userId: STRANGER, messageId: asked.id, guildId: guild().id })
			.finalMessage();
		assert.match(stranger.content, /Only the member who ran `\/privacy delete`/u);
		const stale = `privacy:delete:${MEMBER}:${h.now() - 1}`;
		const expired = await h.sandbox
			.dispatchButton({ customId: stale, userId: MEMBER, messageId: asked.id, guildId: guild().id })
			.finalMessage();
		assert.match(expired.content, /expired/u);
		assert.equal((await privacy('show').finalMessage()).content.includes('Your link: 1'), true, 'nothing deleted yet');

		const again = await privacy('delete').finalMessage();
		const pressed = await h.sandbox
			.dispatchButton({ customId: deleteButton(again.components)!, userId: MEMBER, messageId: again.id })
			.finalMessage();
		assert.match(pressed.content, /^\*\*Deleted\.\*\* What went:\n/u);
		assert.match(pressed.content, /- Your link: 1/u);
		assert.match(pressed.content, /- Your digest \(with the language last seen\): 1/u);
		assert.deepEqual(pressed.components, [], 'the button is gone');
		assert.match((await privacy('show').finalMessage()).content, /The bot holds nothing about you\./u);

		const twice = await privacy('delete', { guildId: null }).finalMessage();
		const second = await h.sandbox
			.dispatchButton({ customId: deleteButton(twice.components)!, userId: MEMBER, messageId: twice.id, guildId: null })
			.finalMessage();
		assert.equal(second.content, 'The bot held nothing about you: nothing was deleted.');
	});
});

describe('/privacy show and export under the cooldown', () => {
	let h: Harness;
	before(async () => {
		h = await startHarness({ env: { STATS_COOLDOWN_SECONDS: '60' }, guildCount: 1 });
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	it('a second walk of the store within the cooldown is refused with the time to wait', async () => {
		const run = (subcommand: string) =>
			h.sandbox.dispatchCommand({ name: 'privacy', subcommand, userId: STRANGER, guildId: null }).finalMessage();
		assert.match((await run('show')).content, /The bot holds nothing about you\./u);
		const again = await run('export');
		assert.ok(again.isEphemeral);
		assert.equal(again.files.length, 0);
		assert.match(again.content, /try again in \d+ s/u);
	});
});
