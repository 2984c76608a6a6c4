import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { describeExpectedError } from '../../src/error-messages.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { removeServerKey, serverKeyStatus, setServerKey } from '../../src/stats/server-key-actions.js';
import { makeSnapshot } from '../history/snapshots.js';
import {
	admin,
	ADMIN,
	AUDIT_CHANNEL,
	auditLines,
	GUILD,
	member,
	NOW,
	openActionContext,
	refusedWith,
	WHEN,
	type ActionTestContext,
} from './action-support.js';

const KEY = 'sk_live_Hh3Nc6Yd1Ue5Wq0XWXYZ';
const OTHER_KEY = 'sk_live_Ab3Nc6Yd1Ue5Wq0Xa7Gp';
const REJECTED = 'sk_live_RejectedRejected00';

describe('the server key, the actions', () => {
	let t: ActionTestContext;
	before(async () => {
		t = await openActionContext();
		t.accounts.set(KEY, 'Pixel_Community');
		t.accounts.set(OTHER_KEY, 'Other_Community');
		await t.ctx.settings.update(GUILD, { auditChannelId: AUDIT_CHANNEL });
	});
	beforeEach(() => {
		t.posts.length = 0;
	});
	after(async () => t.close());

	test('without Manage Server: refused in the words of /server-key, the API not asked, nothing stored', async () => {
		const calls = t.verifyCalls;
		for (const origin of ['discord', 'dashboard'] as const) {
			await assert.rejects(
				setServerKey(t.ctx, member(origin), GUILD, KEY),
				refusedWith('serverKey.manageServerRequired'),
			);
			await assert.rejects(
				removeServerKey(t.ctx, member(origin), GUILD),
				refusedWith('serverKey.manageServerRequired'),
			);
			await assert.rejects(
				serverKeyStatus(t.ctx, member(origin), GUILD),
				refusedWith('serverKey.manageServerRequired'),
			);
		}
		assert.equal(t.verifyCalls, calls);
		assert.equal(await t.ctx.links.getServerLink(GUILD), null);
		assert.deepEqual(t.posts, []);
	});

	test('set from the dashboard: stored sealed, the status names who and when, the audit line says (dashboard)', async () => {
		const info = await setServerKey(t.ctx, admin('dashboard'), GUILD, KEY, { guildLocale: 'en-US' });
		assert.equal(info.accountName, 'Pixel_Community');
		assert.equal(info.keyHint, 'WXYZ');
		assert.equal(info.linkedBy, ADMIN);
		const status = await serverKeyStatus(t.ctx, admin(), GUILD);
		assert.deepEqual(status, { ...info, readable: true });
		assert.deepEqual(auditLines(t), [
			`<@${ADMIN}> (dashboard) linked the server's API key (ending \`…WXYZ\`) ${WHEN}.`,
		]);
		const store = await t.dumpStore();
		assert.ok(!store.includes(KEY) && !store.includes(Buffer.from(KEY).toString('base64')), 'no key in clear');
		assert.ok(!t.logs.join('\n').includes(KEY), 'nor in a log line');
	});

	test('the audit line is in the server language: its setting, else the locale the front end gives', async () => {
		await setServerKey(t.ctx, admin(), GUILD, KEY, { guildLocale: 'de' });
		assert.deepEqual(auditLines(t), [
			`<@${ADMIN}> hat den API-Schlüssel des Servers verknüpft (endet auf \`…WXYZ\`), ${WHEN}.`,
		]);
	});

	test('a key the stats API rejects: the words of /server-key set, the old key stays, no audit line', async () => {
		const before = await t.ctx.links.getServerLink(GUILD);
		const error = await setServerKey(t.ctx, admin('dashboard'), GUILD, REJECTED).catch((caught: unknown) => caught);
		assert.ok(refusedWith('errors.serverLinkKeyRejected')(error));
		assert.ok(!JSON.stringify({ error, facing: describeExpectedError(error) }).includes(REJECTED));
		assert.ok(!(error as Error).message.includes(REJECTED));
		assert.deepEqual(await t.ctx.links.getServerLink(GUILD), before);
		assert.deepEqual(auditLines(t), []);
		const badShape = await setServerKey(t.ctx, admin(), GUILD, 'no key').catch((caught: unknown) => caught);
		assert.equal(describeExpectedError(badShape)?.key, 'errors.invalidKeyLength');
		assert.deepEqual(await t.ctx.links.getServerLink(GUILD), before);
	});

	test('remove: the key and its account history go, one audit line; a second remove finds nothing', async () => {
		await setServerKey(t.ctx, admin(), GUILD, OTHER_KEY);
		await t.ctx.history.record(makeSnapshot({ generatedAt: new Date(NOW).toISOString(), user: 'Other_Community' }));
		t.posts.length = 0;
		assert.deepEqual(await removeServerKey(t.ctx, admin(), GUILD, { guildLocale: 'en-US' }), { removed: true });
		assert.equal(await t.ctx.links.getServerLink(GUILD), null);
		assert.equal(await t.ctx.history.read(historyAccountId('Other_Community')), null);
		assert.deepEqual(auditLines(t), [`<@${ADMIN}> removed the server's API key ${WHEN}.`]);
		assert.deepEqual(await removeServerKey(t.ctx, admin('dashboard'), GUILD), { removed: false });
		assert.equal(auditLines(t).length, 1, 'nothing removed, nothing to audit');
		assert.equal(await serverKeyStatus(t.ctx, admin(), GUILD), null);
	});
});
