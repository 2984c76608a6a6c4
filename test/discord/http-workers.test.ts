import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { InteractionHandle } from '../../sandbox/index.js';
import { ADMIN_PERMISSIONS, EPHEMERAL } from '../app/harness.js';
import { startHttpWorkers, type HttpWorkers } from './http-workers.js';
import { sharedStores, uniqueSnowflake, usable } from './shared-stores.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Where the stand-in delivered the interaction: the worker's URL. */
function workerOf(handle: InteractionHandle): string {
	const delivery = handle.deliveredTo.at(-1);
	assert.equal(delivery?.via, 'http');
	return delivery.url;
}

for (const store of await sharedStores()) {
	if (!usable(store, 'HTTP interactions mode, two workers')) continue;

	describe(`HTTP interactions mode: two workers on one ${store.name} store`, () => {
		let w: HttpWorkers;
		const alice = uniqueSnowflake('31');
		const bob = uniqueSnowflake('32');
		let aliceKey: string;
		let serverKey: string;
		const seen = new Set<string>();

		const track = (handle: InteractionHandle) => {
			void handle.firstResponse().then(() => seen.add(workerOf(handle)));
			return handle;
		};
		const linkViaModal = async (apiKey: string, who: { userId: string; permissions?: string; server?: boolean }) => {
			const { server = false, ...where } = who;
			const command = track(
				server
					? w.sandbox.dispatchCommand({ name: 'server-key', subcommand: 'set', ...where })
					: w.sandbox.dispatchCommand({ name: 'link', ...where }),
			);
			const modal = await command.firstResponse();
			if (modal.type !== 9) return { modal, message: await command.finalMessage(), command };
			const submit = track(
				w.sandbox.dispatchModalSubmit({
					customId: String(modal.data.custom_id),
					fields: { 'api-key': apiKey },
					...where,
				}),
			);
			assert.notEqual(workerOf(submit), workerOf(command), 'the modal is answered by the other worker');
			return { modal, message: await submit.finalMessage(), command };
		};

		before(async () => {
			w = await startHttpWorkers({ storeUrl: store.url });
			aliceKey = w.service.createAccount('Alice_Ads');
			serverKey = w.service.createAccount('Pixel_Community');
			await w.workers[0]!.ctx.links.removeServerLink(w.sandbox.guildIds[0]!);
		});
		after(async () => {
			w.sandbox.assertNoViolations();
			await w.close();
		});

		it('passes the check Discord runs when the Interactions Endpoint URL is saved, on both workers', async () => {
			for (const worker of w.workers) {
				const verification = await w.sandbox.verifyInteractionsEndpoint(worker.interactionsUrl!);
				assert.deepEqual(verification.problems, []);
				assert.ok(verification.ok);
				assert.equal(verification.ping.body, '{"type":1}');
				assert.match(verification.ping.contentType, /^application\/json/);
			}
		});

		it('opens no gateway connection', () => {
			assert.equal(w.sandbox.identifyCount, 0);
			assert.ok(w.workers.every((worker) => worker.client === null));
		});

		it('help answers privately, inline in the HTTP response', async () => {
			const handle = track(w.sandbox.dispatchCommand({ name: 'help', userId: alice }));
			const first = await handle.firstResponse();
			assert.equal(first.type, 4);
			assert.ok(first.at < 3000);
			const message = await handle.finalMessage();
			assert.ok(message.isEphemeral);
			assert.match(message.content, /\/stats/);
			assert.equal(handle.callbackAttempts, 1);
		});

		it('stats without a link gives the how-to', async () => {
			const message = await track(w.sandbox.dispatchCommand({ name: 'stats', userId: bob })).finalMessage();
			assert.ok(message.isEphemeral);
			assert.match(message.content, /You have not linked an API key yet\. Run `\/link`/);
		});

		it('link opens a modal on one worker and the other links the account from its submit', async () => {
			const { modal, message } = await linkViaModal(aliceKey, { userId: alice });
			assert.equal(modal.type, 9);
			assert.ok(message.isEphemeral);
			assert.match(message.content, /Linked your account to \*\*Alice\\_Ads\*\*/);
			assert.ok(!message.content.includes(aliceKey));
			for (const worker of w.workers) assert.notEqual(await worker.ctx.links.getUserLink(alice), null);
		});

		it('stats replies privately with the figures and the PNG chart, deferred inline then edited over REST', async () => {
			const handle = track(
				w.sandbox.dispatchCommand({ name: 'stats', userId: alice, options: [{ name: 'days', type: 4, value: 14 }] }),
			);
			const first = await handle.firstResponse();
			assert.ok(first.at < 3000);
			const message = await handle.finalMessage();
			assert.ok(message.isEphemeral);
			assert.match(JSON.stringify(message.embeds), /Alice\\\\_Ads/);
			assert.equal(message.files.length, 1);
			assert.ok(message.files[0]!.bytes.subarray(0, 8).equals(PNG_SIGNATURE));
			assert.match(JSON.stringify(message.components), new RegExp(`stats:share:${alice}:me:14`));
			assert.equal(handle.callbackAttempts, 1);
		});

		it('Share posts one public copy, for the invoker only', async () => {
			const buttonId = `stats:share:${alice}:me:30`;
			const privateReply = await track(w.sandbox.dispatchCommand({ name: 'stats', userId: alice })).finalMessage();
			const stranger = track(w.sandbox.dispatchButton({ customId: buttonId, userId: bob, messageId: privateReply.id }));
			assert.match((await stranger.finalMessage()).content, /Only the member who ran `\/stats` can share/);

			const channelId = w.sandbox.guilds[0]!.defaultChannelId;
			const before = w.sandbox.channelMessages(channelId).length;
			const press = track(w.sandbox.dispatchButton({ customId: buttonId, userId: alice, messageId: privateReply.id }));
			assert.equal((await press.firstResponse()).type, 6);
			await press.waitFor((x) => x.followUps.some((f) => f.status < 300) && x.edits.some((e) => e.status < 300));
			const posted = w.sandbox.channelMessages(channelId).slice(before);
			assert.equal(posted.length, 1);
			assert.equal(posted[0]!.isEphemeral, false);
			assert.equal(posted[0]!.files.length, 1);
		});

		it('stats share:true keeps the defer private and posts the result publicly', async () => {
			const handle = track(
				w.sandbox.dispatchCommand({ name: 'stats', userId: alice, options: [{ name: 'share', type: 5, value: true }] }),
			);
			const first = await handle.firstResponse();
			assert.equal(first.type, 5);
			assert.equal(first.flags & EPHEMERAL, EPHEMERAL);
			await handle.waitFor((x) => x.followUps.some((f) => f.status < 300));
			assert.equal(handle.followUps.find((f) => f.status < 300)!.flags & EPHEMERAL, 0);
			assert.match((await handle.finalMessage()).content, /Posted in the channel/);
		});

		it('server-key: refused without Manage Server, then set, status and remove across workers', async () => {
			const refused = await linkViaModal(serverKey, { userId: bob, server: true });
			assert.equal(refused.modal.type, 4);
			assert.match(refused.message.content, /Manage Server/);
			const guildId = w.sandbox.guildIds[0]!;
			assert.equal(await w.workers[1]!.ctx.links.getServerLink(guildId), null);

			const set = await linkViaModal(serverKey, { userId: bob, server: true, permissions: ADMIN_PERMISSIONS });
			assert.match(set.message.content, /Linked this server to \*\*Pixel\\_Community\*\*/);
			const status = await track(
				w.sandbox.dispatchCommand({
					name: 'server-key',
					subcommand: 'status',
					userId: bob,
					permissions: ADMIN_PERMISSIONS,
				}),
			).finalMessage();
			assert.match(status.content, /Pixel\\_Community/);
			assert.ok(!status.content.includes(serverKey));
			const remove = await track(
				w.sandbox.dispatchCommand({
					name: 'server-key',
					subcommand: 'remove',
					userId: bob,
					permissions: ADMIN_PERMISSIONS,
				}),
			).finalMessage();
			assert.match(remove.content, /Removed the server's API key/);
			assert.equal(await w.workers[0]!.ctx.links.getServerLink(guildId), null);
		});

		it('unlink removes the link for every worker', async () => {
			const message = await track(w.sandbox.dispatchCommand({ name: 'unlink', userId: alice })).finalMessage();
			assert.match(message.content, /Unlinked/);
			for (const worker of w.workers) assert.equal(await worker.ctx.links.getUserLink(alice), null);
		});

		it('every interaction went to one of the two workers, both were used, and each was answered once', () => {
			assert.deepEqual([...seen].sort(), w.workers.map((worker) => worker.interactionsUrl!).sort());
			for (const handle of w.sandbox.dispatchedInteractions) assert.ok(handle.callbackAttempts <= 1);
		});

		it('forged, unsigned and replayed-with-altered-body requests get 401 and change nothing', async () => {
			const carol = uniqueSnowflake('33');
			const carolKey = w.service.createAccount('Carol_Ads');
			const { message } = await linkViaModal(carolKey, { userId: carol });
			assert.match(message.content, /Linked your account/);
			const before = w.service.requestsFor(carolKey);

			const forged = await w.sandbox.forgeInteraction({ name: 'unlink', userId: carol });
			assert.equal(forged.status, 401);
			const unsigned = await w.sandbox.sendUnsignedInteraction({ name: 'unlink', userId: carol });
			assert.equal(unsigned.status, 401);

			const genuine = track(w.sandbox.dispatchCommand({ name: 'help', userId: bob }));
			await genuine.finalMessage();
			const replayed = await w.sandbox.replayInteraction(genuine, (payload) => ({
				...payload,
				data: { ...(payload.data as object), name: 'unlink' },
				member: { ...(payload.member as object), user: { ...(payload.member as { user: object }).user, id: carol } },
			}));
			assert.equal(replayed.status, 401);

			for (const probe of [forged, unsigned, replayed]) {
				assert.equal(
					probe.handle.callbackAttempts,
					probe === replayed ? 1 : 0,
					'no answer went out for a refused request',
				);
			}
			assert.notEqual(await w.workers[0]!.ctx.links.getUserLink(carol), null, 'the link is still there');
			assert.equal(w.service.requestsFor(carolKey), before, 'no upstream call either');
			await w.workers[0]!.ctx.links.removeUserLink(carol);
		});

		it('refuses a body over 1 MiB with 413 and answers PING once more afterwards', async () => {
			const url = new URL(w.workers[0]!.interactionsUrl!);
			const status = await new Promise<number>((resolve, reject) => {
				const req = request(
					{
						host: url.hostname,
						port: url.port,
						path: url.pathname,
						method: 'POST',
						headers: { 'content-type': 'application/json' },
					},
					(res) => {
						res.resume();
						resolve(res.statusCode ?? 0);
					},
				);
				req.on('error', reject);
				// Chunked, no length declared: the cap must hold while the body streams in.
				const chunk = Buffer.alloc(64 * 1024, 0x20);
				for (let i = 0; i < 20; i++) req.write(chunk);
				req.end();
			});
			assert.equal(status, 413);
			const declared = await fetch(url, {
				method: 'POST',
				headers: { 'content-length': String(2 * 1024 * 1024) },
				body: Buffer.alloc(2 * 1024 * 1024),
			}).then(
				(res) => res.status,
				() => -1,
			);
			assert.equal(declared, 413);
			assert.ok((await w.sandbox.verifyInteractionsEndpoint(url.href)).ok);
		});
	});
}
