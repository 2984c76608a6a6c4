// addAlert, removeAlert and listAlerts without Discord or HTTP: a real SQLite store, a GuildApi that records what it
// is asked, and the stand-in stats endpoint's figures.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { PermissionFlagsBits } from 'discord.js';
import { addAlert, listAlerts, removeAlert, type AlertInput } from '../../src/watch/alert-actions.js';
import { watchStoreOf } from '../../src/watch/watch-context.js';
import { actorWith, openActionContext, refusal, type ActionTestContext } from './action-support.js';
import { ADMIN, GUILD, TEXT, VOICE } from './support.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');
const POSTS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
const WHEN = `<t:${NOW / 1000}:F>`;

function input(overrides: Partial<AlertInput> = {}): AlertInput {
	return {
		kind: 'no-sends',
		channel: { id: TEXT, type: 0 },
		threshold: 6,
		guildLocale: 'en-US',
		...overrides,
	};
}

describe('alert actions', () => {
	let env: ActionTestContext;
	const stored = async () => watchStoreOf(env.actions).alerts.listServer(GUILD);

	beforeEach(async () => {
		env = await openActionContext(() => NOW);
		env.guildApi.permissions.set(TEXT, POSTS);
	});
	afterEach(async () => env.close());

	it('adds an alert, stores it and writes the audit line', async () => {
		const record = await addAlert(env.actions, actorWith(), GUILD, input());
		assert.match(record.id, /^[a-z0-9]{4}$/);
		assert.equal(record.kind, 'no-sends');
		assert.equal(record.threshold, 6);
		assert.equal(record.channelId, TEXT);
		assert.equal(record.createdBy, ADMIN);
		assert.equal(record.createdAt, NOW);
		assert.equal(record.paused, null);
		assert.deepEqual(await stored(), [record]);
		assert.deepEqual(env.auditLines(), [
			`<@${ADMIN}> added alert \`${record.id}\` (no new sends for 6 hours) in <#${TEXT}> ${WHEN}.`,
		]);

		const listed = await listAlerts(env.actions, actorWith(), GUILD);
		assert.deepEqual(listed, { records: [record], max: 10, everyMinutes: 15 });
	});

	it('says (dashboard) in the audit line of a change made on the web', async () => {
		const record = await addAlert(env.actions, actorWith({ origin: 'dashboard' }), GUILD, input());
		await removeAlert(env.actions, actorWith({ origin: 'dashboard' }), GUILD, record.id);
		assert.deepEqual(env.auditLines(), [
			`<@${ADMIN}> (dashboard) added alert \`${record.id}\` (no new sends for 6 hours) in <#${TEXT}> ${WHEN}.`,
			`<@${ADMIN}> (dashboard) removed alert \`${record.id}\` ${WHEN}.`,
		]);
	});

	it('refuses the eleventh alert and stores nothing more', async () => {
		for (let threshold = 1; threshold <= 10; threshold += 1) {
			await addAlert(env.actions, actorWith(), GUILD, input({ threshold }));
		}
		const refused = await refusal(addAlert(env.actions, actorWith(), GUILD, input({ threshold: 11 })));
		assert.equal(refused.key, 'watch.alert.tooMany');
		assert.match(refused.text, /already has 10 alerts/);
		assert.equal((await stored()).length, 10);
		assert.equal(new Set((await stored()).map((record) => record.id)).size, 10, 'ids are unique');
	});

	it('two admins adding at once cannot pass the limit together', async () => {
		for (let threshold = 1; threshold <= 9; threshold += 1) {
			await addAlert(env.actions, actorWith(), GUILD, input({ threshold }));
		}
		const results = await Promise.allSettled([
			addAlert(env.actions, actorWith(), GUILD, input({ threshold: 20 })),
			addAlert(env.actions, actorWith({ userId: '300000000000000002' }), GUILD, input({ threshold: 21 })),
		]);
		assert.deepEqual(results.map((result) => result.status).sort(), ['fulfilled', 'rejected']);
		assert.equal((await stored()).length, 10);
	});

	it("refuses a threshold out of the kind's range, and stores nothing", async () => {
		for (const [kind, threshold] of [
			['failed-share', 150],
			['failed-share', 0],
			['sends-drop', 2.5],
			['no-sends', 73],
			['no-sends', null],
		] as const) {
			const refused = await refusal(addAlert(env.actions, actorWith(), GUILD, input({ kind, threshold })));
			assert.equal(refused.key, 'watch.alert.invalidThreshold', `${kind} ${threshold}`);
		}
		const percent = await refusal(
			addAlert(env.actions, actorWith(), GUILD, input({ kind: 'failed-share', threshold: 150 })),
		);
		assert.match(percent.text, /whole number from 1 to 100/);
		const milestone = await refusal(
			addAlert(env.actions, actorWith(), GUILD, input({ kind: 'sends-milestone', threshold: 0 })),
		);
		assert.equal(milestone.key, 'watch.alert.invalidMilestone');
		assert.deepEqual(await stored(), []);
		assert.deepEqual(env.auditLines(), []);
	});

	it('refuses a kind it does not know and a channel that takes no posts', async () => {
		assert.equal(
			(await refusal(addAlert(env.actions, actorWith(), GUILD, input({ kind: 'sometimes' })))).key,
			'watch.alert.invalidKind',
		);
		for (const channel of [{ id: VOICE, type: 2 }, { id: VOICE, type: 4 }, { id: '', type: 0 }, null]) {
			const refused = await refusal(addAlert(env.actions, actorWith(), GUILD, input({ channel })));
			assert.equal(refused.key, 'watch.alert.notTextChannel', JSON.stringify(channel));
		}
		// An announcement channel takes posts; a type not told is left to Discord's picker.
		env.guildApi.permissions.set(VOICE, POSTS);
		await addAlert(env.actions, actorWith(), GUILD, input({ channel: { id: TEXT, type: 5 } }));
		await addAlert(env.actions, actorWith(), GUILD, input({ channel: { id: TEXT, type: null } }));
		assert.equal((await stored()).length, 2);
	});

	it('refuses a member without Manage Server, whatever they do, and stores nothing', async () => {
		const member = actorWith({ canManageServer: false, userId: '300000000000000009' });
		for (const action of [
			addAlert(env.actions, member, GUILD, input()),
			listAlerts(env.actions, member, GUILD),
			removeAlert(env.actions, member, GUILD, 'abcd'),
		]) {
			const refused = await refusal(action);
			assert.equal(refused.key, 'errors.manageServerRequired');
			assert.deepEqual(refused.vars, { command: 'alert' });
			assert.match(refused.text, /Only members with the Manage Server permission can use `\/alert`/);
		}
		assert.deepEqual(await stored(), []);
		assert.deepEqual(env.auditLines(), []);
	});

	it('names the permissions the bot lacks in the channel, and stores nothing', async () => {
		env.guildApi.permissions.set(TEXT, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages);
		const refused = await refusal(addAlert(env.actions, actorWith(), GUILD, input()));
		assert.equal(refused.key, 'watch.cannotUse');
		assert.equal(refused.text, `The bot cannot use <#${TEXT}>: it lacks Embed Links there.`);

		// A channel the bot cannot see (Discord answers as if it were gone) lacks everything.
		env.guildApi.permissions.delete(TEXT);
		const unseen = await refusal(addAlert(env.actions, actorWith(), GUILD, input()));
		assert.match(unseen.text, /lacks View Channel, Send Messages,? and Embed Links there/);
		assert.deepEqual(await stored(), []);
	});

	it('needs a readable server key', async () => {
		const refused = await refusal(addAlert(env.actions, actorWith(), '100000000000000077', input()));
		assert.equal(refused.key, 'watch.needsServerKey');
	});

	it('refuses a milestone the account has already passed, reading its figures', async () => {
		env.setFigures((at) => ({ generatedAt: new Date(at).toISOString(), sendsAllTime: 1500, joinsAllTime: 40 }));
		const refused = await refusal(
			addAlert(env.actions, actorWith(), GUILD, input({ kind: 'sends-milestone', threshold: 1000 })),
		);
		assert.equal(refused.key, 'watch.alert.milestonePassed');
		assert.match(refused.text, /already at 1,500/);
		assert.deepEqual(await stored(), []);
		const joins = await addAlert(env.actions, actorWith(), GUILD, input({ kind: 'joins-milestone', threshold: 50 }));
		assert.equal(joins.threshold, 50);
	});

	it('removes an alert by its id as typed, once, with one audit line', async () => {
		const record = await addAlert(env.actions, actorWith(), GUILD, input());
		assert.deepEqual(await removeAlert(env.actions, actorWith(), GUILD, ` ${record.id.toUpperCase()} `), {
			id: record.id,
			removed: true,
		});
		assert.deepEqual(await stored(), []);
		assert.deepEqual(await removeAlert(env.actions, actorWith(), GUILD, record.id), {
			id: record.id,
			removed: false,
		});
		assert.deepEqual(await removeAlert(env.actions, actorWith(), GUILD, null), { id: '', removed: false });
		assert.deepEqual(env.auditLines().slice(1), [`<@${ADMIN}> removed alert \`${record.id}\` ${WHEN}.`]);
	});
});
