// /statchannel and /alert end to end: the real bot, the Discord stand-in and the bundled stats service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Permission } from '../../sandbox/index.js';
import { ADMIN_PERMISSIONS, createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';

const ADMIN = '310000000000000199';
const MEMBER = '310000000000000198';

describe('/statchannel and /alert', () => {
	let h: Harness;
	const guild = () => h.sandbox.guilds[0]!;
	const voice = () => guild().voiceChannelIds[0]!;

	before(async () => {
		h = await startHarness();
		const apiKey = createAccount(h, 'Pixel_Community');
		const { message } = await linkViaModal(h, apiKey, {
			userId: ADMIN,
			guildId: guild().id,
			server: true,
			permissions: ADMIN_PERMISSIONS,
		});
		assert.match(message.content, /Linked this server/);
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	function run(
		name: 'statchannel' | 'alert',
		subcommand: string,
		options: { name: string; type: number; value: unknown }[] = [],
		where: { userId?: string; guildId?: string | null; permissions?: string } = {},
	) {
		return h.sandbox
			.dispatchCommand({
				name,
				subcommand,
				options,
				userId: ADMIN,
				guildId: guild().id,
				permissions: ADMIN_PERMISSIONS,
				...where,
			} as Parameters<Harness['sandbox']['dispatchCommand']>[0])
			.finalMessage();
	}

	it('statchannel add renames the voice channel at once, privately; list shows it; remove forgets it', async () => {
		const reply = await run('statchannel', 'add', [
			{ name: 'channel', type: 7, value: voice() },
			{ name: 'figure', type: 3, value: 'sends-all' },
		]);
		assert.ok(reply.isEphemeral);
		assert.match(reply.content, /now shows Sends all time and is named `Sends all time: [\d,]+`/);
		assert.match(h.sandbox.channel(voice())?.name ?? '', /^Sends all time: [\d,]+$/);

		const listing = await run('statchannel', 'list');
		assert.ok(listing.isEphemeral);
		assert.match(listing.content, new RegExp(`<#${voice()}>: Sends all time, named Sends all time: `));

		const removal = await run('statchannel', 'remove', [{ name: 'channel', type: 3, value: voice() }]);
		assert.ok(removal.isEphemeral);
		assert.match(removal.content, /is no longer a stat channel/);
		assert.match((await run('statchannel', 'list')).content, /no stat channels/);
	});

	for (const name of ['statchannel', 'alert'] as const) {
		it(`${name} is refused without Manage Server and in DMs`, async () => {
			const refused = await run(name, 'list', [], { userId: MEMBER, permissions: '0' });
			assert.ok(refused.isEphemeral);
			assert.match(refused.content, new RegExp(`Only members with the Manage Server permission can use \`/${name}\``));
			const dm = await run(name, 'list', [], { userId: MEMBER, guildId: null });
			assert.match(dm.content, new RegExp(`\`/${name}\` works inside a server`));
		});
	}

	it('statchannel add names the permission the bot lacks in the channel, and changes nothing', async () => {
		const before = h.sandbox.channel(voice())?.name;
		h.sandbox.setChannelOverwrites(voice(), [{ id: h.sandbox.botUserId, type: 1, deny: Permission.ManageChannels }]);
		try {
			const reply = await run('statchannel', 'add', [
				{ name: 'channel', type: 7, value: voice() },
				{ name: 'figure', type: 3, value: 'joins-all' },
			]);
			assert.ok(reply.isEphemeral);
			assert.match(reply.content, new RegExp(`cannot use <#${voice()}>: it lacks Manage Channels there`));
			assert.equal(h.sandbox.channel(voice())?.name, before);
			assert.match((await run('statchannel', 'list')).content, /no stat channels/);
		} finally {
			h.sandbox.setChannelOverwrites(voice(), []);
		}
	});

	it('alert add names the permission the bot lacks, then adds, lists and removes an alert', async () => {
		const text = guild().defaultChannelId;
		h.sandbox.setChannelOverwrites(text, [{ id: h.sandbox.botUserId, type: 1, deny: Permission.EmbedLinks }]);
		const options = [
			{ name: 'kind', type: 3, value: 'no-sends' },
			{ name: 'channel', type: 7, value: text },
			{ name: 'threshold', type: 10, value: 6 },
		];
		try {
			const refused = await run('alert', 'add', options);
			assert.match(refused.content, new RegExp(`cannot use <#${text}>: it lacks Embed Links there`));
		} finally {
			h.sandbox.setChannelOverwrites(text, []);
		}
		const added = await run('alert', 'add', options);
		assert.ok(added.isEphemeral);
		const id = /Alert `([a-z0-9]+)` added: no new sends for 6 hours/.exec(added.content)?.[1];
		assert.ok(id, added.content);
		const listing = await run('alert', 'list');
		assert.match(listing.content, new RegExp(`\`${id}\` no new sends for 6 hours, in <#${text}>: watching`));

		const badThreshold = await run('alert', 'add', [
			{ name: 'kind', type: 3, value: 'failed-share' },
			{ name: 'channel', type: 7, value: text },
			{ name: 'threshold', type: 10, value: 150 },
		]);
		assert.match(badThreshold.content, /whole number from 1 to 100/);

		const removal = await run('alert', 'remove', [{ name: 'id', type: 3, value: id }]);
		assert.match(removal.content, new RegExp(`Alert \`${id}\` removed`));
		assert.match((await run('alert', 'list')).content, /no alerts/);
	});
});
