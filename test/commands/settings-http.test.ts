import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHttpWorkers, type HttpWorkers } from '../discord/http-workers.js';
import { sharedStores, uniqueSnowflake, usable } from '../discord/shared-stores.js';
import { assertNoViolationsBesidesRoleLists, withMemberRoles } from '../settings/sandbox-members.js';
import { ADMIN_PERMISSIONS, EPHEMERAL } from '../app/harness.js';

// The same rules over the other transport: signed HTTP interactions, answered by two workers in turn on one
// shared store, so a setting written by one worker is enforced by the other.
for (const store of await sharedStores()) {
	if (!usable(store, 'settings in HTTP interactions mode')) continue;

	describe(`settings in HTTP interactions mode: two workers on one ${store.name} store`, () => {
		let w: HttpWorkers;
		let roles: Map<string, string[]>;
		let guildId: string;
		let here: string;
		let shareChannel: string;
		const admin = uniqueSnowflake('31');
		const member = uniqueSnowflake('32');
		// Roles the server really has: one Discord does not list counts as deleted, and its rule as unset.
		let statsRole: string;
		let shareRole: string;

		const publicCount = () =>
			[here, shareChannel].flatMap((id) => w.sandbox.channelMessages(id)).filter((m) => !m.isEphemeral).length;

		before(async () => {
			w = await startHttpWorkers({ storeUrl: store.url });
			roles = withMemberRoles(w.sandbox);
			const serverRoles = w.sandbox.guilds[0]!.roles() as { id: string }[];
			statsRole = serverRoles[3]!.id;
			shareRole = serverRoles[4]!.id;
			guildId = w.sandbox.guildIds[0]!;
			here = w.sandbox.guilds[0]!.defaultChannelId;
			shareChannel = w.sandbox.guilds[0]!.channelIds[1]!;
			await w.workers[0]!.ctx.settings.reset(guildId);
			await w.workers[0]!.ctx.links.removeServerLink(guildId);
			const serverKey = w.service.createAccount('Pixel_Community');
			const command = w.sandbox.dispatchCommand({
				name: 'server-key',
				subcommand: 'set',
				userId: admin,
				permissions: ADMIN_PERMISSIONS,
			});
			const modal = await command.firstResponse();
			await w.sandbox
				.dispatchModalSubmit({
					customId: String(modal.data.custom_id),
					fields: { 'api-key': serverKey },
					userId: admin,
					permissions: ADMIN_PERMISSIONS,
				})
				.finalMessage();
		});
		after(async () => {
			await w.workers[0]!.ctx.settings.reset(guildId);
			await w.workers[0]!.ctx.links.removeServerLink(guildId);
			assertNoViolationsBesidesRoleLists(w.sandbox);
			await w.close();
		});

		it('/settings set is refused without Manage Server and applied with it, privately', async () => {
			const refused = await w.sandbox
				.dispatchCommand({ name: 'settings', subcommand: 'show', userId: member, permissions: '0' })
				.finalMessage();
			assert.match(refused.content, /Manage Server/);
			const reply = await w.sandbox
				.dispatchCommand({
					name: 'settings',
					subcommand: 'set',
					userId: admin,
					permissions: ADMIN_PERMISSIONS,
					options: [
						{ name: 'server-stats-role', type: 8, value: statsRole },
						{ name: 'share-role', type: 8, value: shareRole },
						{ name: 'share-channel', type: 7, value: shareChannel },
					],
				})
				.finalMessage();
			assert.equal(reply.flags & EPHEMERAL, EPHEMERAL);
			assert.match(reply.content, new RegExp(`\`server-stats-role\`: <@&${statsRole}>`));
			const shown = await w.sandbox
				.dispatchCommand({ name: 'settings', subcommand: 'show', userId: admin, permissions: ADMIN_PERMISSIONS })
				.finalMessage();
			assert.match(shown.content, new RegExp(`Where public posts go: <#${shareChannel}>`));
		});

		it('scope:server without the role is refused on either worker; with it the figures come', async () => {
			for (let i = 0; i < 2; i++) {
				const refused = await w.sandbox
					.dispatchCommand({ name: 'stats', userId: member, options: [{ name: 'scope', type: 3, value: 'server' }] })
					.finalMessage();
				assert.match(refused.content, new RegExp(`<@&${statsRole}>`));
				assert.equal(refused.embeds.length, 0);
			}
			roles.set(member, [statsRole]);
			const allowed = await w.sandbox
				.dispatchCommand({ name: 'stats', userId: member, options: [{ name: 'scope', type: 3, value: 'server' }] })
				.finalMessage();
			assert.equal(allowed.embeds.length, 1);
		});

		it('a share role removed between /stats and the Share press: nothing public', async () => {
			roles.set(member, [statsRole, shareRole]);
			const reply = await w.sandbox
				.dispatchCommand({
					name: 'stats',
					userId: member,
					channelId: shareChannel,
					options: [{ name: 'scope', type: 3, value: 'server' }],
				})
				.finalMessage();
			const buttonId = JSON.stringify(reply.components).match(/stats:share:[^"]+/)?.[0];
			assert.ok(buttonId, 'offered in the share channel to a member with both roles');
			roles.set(member, [statsRole]);
			const before = publicCount();
			const press = w.sandbox.dispatchButton({ customId: buttonId, userId: member, messageId: reply.id });
			await press.waitFor((x) => x.followUps.some((f) => f.status < 300));
			const note = press.followUps.find((f) => f.status < 300)!;
			assert.equal(note.flags & EPHEMERAL, EPHEMERAL);
			assert.match(String(note.data.content), new RegExp(`<@&${shareRole}>`));
			assert.equal(publicCount(), before);
		});

		it('share:true outside the share channel answers privately and names the channel', async () => {
			roles.set(member, [statsRole, shareRole]);
			const before = publicCount();
			const message = await w.sandbox
				.dispatchCommand({
					name: 'stats',
					userId: member,
					options: [
						{ name: 'scope', type: 3, value: 'server' },
						{ name: 'share', type: 5, value: true },
					],
				})
				.finalMessage();
			assert.ok(message.isEphemeral);
			assert.match(message.content, new RegExp(`<#${shareChannel}>`));
			assert.equal(message.embeds.length, 1, 'the figures, privately');
			assert.equal(publicCount(), before);
		});
	});
}
