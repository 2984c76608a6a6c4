// The demo's stat channel and alert flows (scripts/demo/watch.ts), played in every language against the real bot.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SandboxMessage } from '../../sandbox/index.js';
import { LOCALES } from '../../src/i18n/index.js';
import { playWatchFlows } from '../../scripts/demo/watch.js';
import { ADMIN_PERMISSIONS, createAccount, linkViaModal, startHarness, type Harness } from '../app/harness.js';

const ADMIN = '310000000000000299';

describe('the demo of stat channels and alerts', () => {
	let h: Harness;

	before(async () => {
		h = await startHarness();
		const guild = h.sandbox.guilds[0]!;
		const { message } = await linkViaModal(h, createAccount(h, 'Pixel_Community'), {
			userId: ADMIN,
			guildId: guild.id,
			server: true,
			permissions: ADMIN_PERMISSIONS,
		});
		assert.match(message.content, /Linked this server/);
	});
	after(async () => {
		h.sandbox.assertNoViolations();
		await h.close();
	});

	it('shows a stat channel name and an alert post in each language', async () => {
		const guild = h.sandbox.guilds[0]!;
		const names: string[] = [];
		for (const [index, locale] of LOCALES.entries()) {
			const steps: { title: string; message: SandboxMessage }[] = [];
			await playWatchFlows(
				{
					ctx: h.bot.ctx,
					sandbox: h.sandbox,
					guildId: guild.id,
					statChannelIds: [...guild.voiceChannelIds, ...guild.categoryIds],
					alertChannelId: guild.defaultChannelId,
					admin: ADMIN,
					manageServer: ADMIN_PERMISSIONS,
					run: async (options) => h.sandbox.dispatchCommand({ locale, guildLocale: locale, ...options }).finalMessage(),
					record: (title, _command, message) => steps.push({ title, message }),
				},
				index,
			);
			const post = steps.find((step) => step.title.startsWith('Alert: the post'))?.message;
			assert.ok(post && !post.isEphemeral && post.embeds.length === 1, `${locale}: one public alert embed`);
			const channelId = [...guild.voiceChannelIds, ...guild.categoryIds][index % 3]!;
			names.push(h.sandbox.channel(channelId)?.name ?? '');
			assert.ok(
				steps
					.filter((step) => step.title !== 'Alert: the post when the milestone is reached')
					.every((step) => step.message.isEphemeral),
			);
		}
		assert.match(names[0] ?? '', /^Sends today: /);
		assert.match(names[1] ?? '', /^Beitritte gesamt: /);
		assert.match(names[2] ?? '', /^Envois aujourd'hui : /);
	});
});
