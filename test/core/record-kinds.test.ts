// The registry of record kinds against what the bot really stores: every feature's records are written through its
// own actions and stores on SQLite, Redis and PostgreSQL, then every key of every namespace (the claims included) is
// listed from the store itself and must match exactly one registered kind, whose owners() names the member, server
// and account it belongs to. A feature that stores a new kind without registering it fails here.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { createClient } from '@redis/client';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { addBoard } from '../../src/boards/board-actions.js';
import { historyPruneClaimKey } from '../../src/history/history-prune-job.js';
import { boardPostClaimKey } from '../../src/boards/board-job.js';
import type { Actor } from '../../src/core/actor.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { kindsOf, RECORD_KINDS, storedValue } from '../../src/core/record-kinds.js';
import type { RecordNamespace, RecordOwners } from '../../src/core/record-kinds.js';
import { setDigest } from '../../src/digests/digest-actions.js';
import { markServerLeft } from '../../src/privacy/left-server-actions.js';
import { serverPurgeClaimKey } from '../../src/privacy/left-server-job.js';
import { digestJobDeps } from '../../src/digests/digest-context.js';
import { sendDueDigest } from '../../src/digests/digest-job.js';
import { createDigestLocaleTracker } from '../../src/digests/digest-locale.js';
import { setGoal } from '../../src/goals/goal-actions.js';
import { addNote } from '../../src/notes/note-actions.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { sampleClaimKey, sampleLeaseKey, samplePassClaimKey, samplePassLeaseKey } from '../../src/history/sampler.js';
import { addReport } from '../../src/reports/report-actions.js';
import { reportSlotClaimKey } from '../../src/reports/report-job.js';
import { setPublicPage } from '../../src/settings/public-page.js';
import { setSettings } from '../../src/settings/settings-actions.js';
import { link } from '../../src/stats/link-actions.js';
import { setServerKey } from '../../src/stats/server-key-actions.js';
import { sqliteFileOf, storeSchemeOf } from '../../src/store-url.js';
import { CLAIMS_TABLE } from '../../src/store/claim-sql.js';
import { CLAIMS_NAMESPACE } from '../../src/store/coordination.js';
import { claimCooldowns } from '../../src/store/cooldowns.js';
import { listEntries } from '../../src/store/list-entries.js';
import { claimLock } from '../../src/store/locks.js';
import { ALL_NAMESPACES } from '../../src/store/namespaces.js';
import { addAlert } from '../../src/watch/alert-actions.js';
import { alertFiringClaimKey } from '../../src/watch/alert-job.js';
import { addStatChannel, removeStatChannel } from '../../src/watch/stat-channel-actions.js';
import { createWebStore } from '../../src/web/auth/sessions.js';
import { addWebhook, testWebhook } from '../../src/webhooks/webhook-actions.js';
import { deliveryClaimKey } from '../../src/webhooks/webhook-delivery.js';
import { queueWebhookEvent } from '../../src/webhooks/webhook-events.js';
import { webhookStoreOf } from '../../src/webhooks/webhook-store.js';
import { startOutside, startStoreRun, storeTargets, type Outside, type StoreRun } from '../actions/store-runs.js';
import { uniqueSnowflake, usable } from '../discord/shared-stores.js';

const LOCALE = 'en-US';

interface Listed {
	namespace: RecordNamespace;
	key: string;
	value: unknown;
}

/** Listed entries that match no registered kind, or more than one: what the registry is missing. */
function unclaimed(listing: readonly Listed[]): string[] {
	return listing
		.filter(({ namespace, key }) => kindsOf(namespace, key).length !== 1)
		.map(({ namespace, key }) => `${namespace} ${key}: ${kindsOf(namespace, key).length} kinds`);
}

const sorted = (owners: RecordOwners): RecordOwners => ({
	members: [...owners.members].sort(),
	servers: [...owners.servers].sort(),
	accounts: [...owners.accounts].sort(),
});
const who = (parts: Partial<RecordOwners>): RecordOwners =>
	sorted({ members: parts.members ?? [], servers: parts.servers ?? [], accounts: parts.accounts ?? [] });

describe('the registry of record kinds', () => {
	test('a stored key of no registered kind is reported, as is one two kinds would claim', () => {
		const listing: Listed[] = [
			{ namespace: 'watch', key: 'note:900:1', value: { guildId: '900' } },
			{ namespace: 'watch', key: 'board:900:5', value: { guildId: '900' } },
			{ namespace: 'settings', key: 'guild:900', value: {} },
		];
		assert.deepEqual(unclaimed(listing), ['watch note:900:1: 0 kinds', 'settings guild:900: 0 kinds']);
		assert.deepEqual(kindsOf('links', 'note:1'), []);
	});

	test('every kind is registered once, with a namespace, and data or transient', () => {
		const ids = RECORD_KINDS.map((kind) => kind.id);
		assert.equal(new Set(ids).size, ids.length, 'no id twice');
		const labels = RECORD_KINDS.map((kind) => kind.label);
		assert.equal(new Set(labels).size, labels.length, 'no label twice');
		const transient = RECORD_KINDS.filter((kind) => kind.keeping === 'transient').map((kind) => kind.id);
		assert.deepEqual(transient.sort(), [
			'cooldown',
			'lock',
			'loginState',
			'renameBudget',
			'restBudget',
			'statsCache',
			'workClaim',
		]);
	});

	test('owners from keys alone: a lock names what it locks, a spread claim its entry, a cooldown its member', () => {
		const ownersOf = (namespace: RecordNamespace, key: string) => {
			const [kind] = kindsOf(namespace, key);
			assert.ok(kind, key);
			return sorted(kind.owners(key, undefined));
		};
		assert.deepEqual(ownersOf(CLAIMS_NAMESPACE, 'lock:goals:user:42'), who({ members: ['42'] }));
		assert.deepEqual(ownersOf(CLAIMS_NAMESPACE, 'lock:report:900:7'), who({ servers: ['900'] }));
		assert.deepEqual(ownersOf(CLAIMS_NAMESPACE, 'spread:digests:digest:42:1234'), who({ members: ['42'] }));
		assert.deepEqual(ownersOf(CLAIMS_NAMESPACE, 'spread:boards:board:900:5:1234'), who({ servers: ['900'] }));
		assert.deepEqual(ownersOf(CLAIMS_NAMESPACE, 'cooldown:stats:42'), who({ members: ['42'] }));
		assert.deepEqual(ownersOf(CLAIMS_NAMESPACE, 'digest-send:42:2026-W14'), who({ members: ['42'] }));
		assert.deepEqual(ownersOf('rest-budget', 'hold'), who({}));
	});

	test('a link whose value cannot be read still names its member by its key', () => {
		const [kind] = kindsOf('links', 'user:42');
		assert.deepEqual(sorted(kind!.owners('user:42', 'sealed-bytes')), who({ members: ['42'] }));
	});
});

/** Every claim the run's store holds, keys as the features spell them (the store's prefixes removed). */
async function listClaimKeys(ctx: CoreContext): Promise<string[]> {
	const url = ctx.config.storeUrl;
	const namespacePrefix = ctx.stores.namespace('links').slice(0, -'links'.length);
	const prefix = `${namespacePrefix}${CLAIMS_NAMESPACE}:`;
	const strip = (keys: string[]) => keys.filter((key) => key.startsWith(prefix)).map((key) => key.slice(prefix.length));
	switch (storeSchemeOf(url)) {
		case 'sqlite': {
			const db = new sqlite3.Database(sqliteFileOf(url));
			try {
				const rows = await new Promise<{ key: string }[]>((resolve, reject) => {
					db.all<{ key: string }>(`SELECT key FROM ${CLAIMS_TABLE}`, (error, found) =>
						error ? reject(error) : resolve(found),
					);
				});
				return strip(rows.map((row) => row.key));
			} finally {
				await new Promise<void>((resolve) => db.close(() => resolve()));
			}
		}
		case 'redis': {
			const client = createClient({ url });
			await client.connect();
			try {
				return strip(await client.keys(`${prefix}*`));
			} finally {
				client.destroy();
			}
		}
		default: {
			const client = new pg.Client({ connectionString: url });
			await client.connect();
			try {
				const { rows } = await client.query<{ key: string }>(`SELECT key FROM ${CLAIMS_TABLE} WHERE key LIKE $1`, [
					`${prefix}%`,
				]);
				return strip(rows.map((row) => row.key));
			} finally {
				await client.end();
			}
		}
	}
}

/** Every live entry of every namespace, and every claim, read from the store itself. */
async function listEverything(ctx: CoreContext): Promise<Listed[]> {
	const listing: Listed[] = [];
	for (const namespace of ALL_NAMESPACES) {
		for await (const { key, raw } of listEntries(ctx.stores, namespace)) {
			listing.push({ namespace, key, value: storedValue(raw) });
		}
	}
	for (const key of await listClaimKeys(ctx)) listing.push({ namespace: CLAIMS_NAMESPACE, key, value: undefined });
	return listing;
}

for (const target of await storeTargets()) {
	const title = 'every record the features store matches one registered kind';
	if (target.name !== 'sqlite' && !usable(target, title)) continue;

	describe(`${title} on ${target.name}`, () => {
		const admin: Actor = {
			userId: uniqueSnowflake('41'),
			canManageServer: true,
			roleIds: [],
			origin: 'dashboard',
		};
		const memberId = uniqueSnowflake('42');
		const member: Actor = { userId: memberId, canManageServer: false, roleIds: [], origin: 'dashboard' };
		let outside: Outside;
		let run: StoreRun;
		let ctx: CoreContext;
		let guildId: string;
		let serverAccount: string;
		let memberAccount: string;
		let listing: Listed[] = [];
		/** Listed while a record lock is held (a lock lives only as long as its read-modify-write). */
		let duringLock: string[] = [];

		before(async () => {
			outside = await startOutside();
			run = await startStoreRun(target, outside);
			({ ctx } = await run.open());
			const guild = outside.sandbox.guilds[0]!;
			guildId = guild.id;
			const [, alertChannel = '', reportChannel = '', boardChannel = ''] = guild.channelIds;
			const voiceChannel = guild.voiceChannelIds[0]!;
			const channel = (id: string) => ({ id, type: outside.sandbox.channel(id)?.type ?? null });
			serverAccount = `Server_${target.name}`;
			memberAccount = `Member_${target.name}`;
			const serverKey = outside.createAccount(serverAccount);
			const memberKey = outside.createAccount(memberAccount);

			// A server's records, each through its action as the dashboard calls it.
			await setServerKey(ctx, admin, guildId, serverKey, { guildLocale: LOCALE });
			await setSettings(ctx, admin, guildId, { 'default-days': 7 }, { guildLocale: LOCALE });
			await setPublicPage(ctx, admin, guildId, true, { guildLocale: LOCALE });
			await addReport(ctx, admin, guildId, {
				channel: channel(reportChannel),
				every: 'weekly',
				hour: 18,
				timezone: 'Europe/Berlin',
				weekday: 'fri',
				botPermissionsInChannel: await ctx.guildApi.channelPermissions(guildId, reportChannel),
				guildLocale: LOCALE,
			});
			const statChannel = { channel: channel(voiceChannel), figure: 'sends-all', guildLocale: LOCALE };
			await addStatChannel(ctx, admin, guildId, statChannel);
			// Removed after its rename and added again: the rename budget it leaves behind is stored too.
			await removeStatChannel(ctx, admin, guildId, `<#${voiceChannel}>`);
			await addStatChannel(ctx, admin, guildId, statChannel);
			const alert = await addAlert(ctx, admin, guildId, {
				kind: 'sends-milestone',
				channel: channel(alertChannel),
				threshold: 1_000_000_000,
				guildLocale: LOCALE,
			});
			const board = await addBoard(ctx, admin, guildId, {
				channel: channel(boardChannel),
				days: null,
				metric: null,
				guildLocale: LOCALE,
			});
			const goal = { metric: 'sends', period: 'month', target: 1000, guildLocale: LOCALE };
			await setGoal(ctx, admin, { ...goal, scope: 'server', guildId });
			const note = { date: '2026-11-01', text: 'campaign A started', guildLocale: LOCALE };
			await addNote(ctx, admin, { ...note, scope: 'server', guildId });
			// Marked left, as a GUILD_DELETE without `unavailable` marks it.
			await markServerLeft(ctx, guildId, 'guildDelete');
			// A webhook, an event queued for it and its delivery log (a ping to a closed loopback port: refused, logged).
			const hooks = { ...ctx, config: { ...ctx.config, webhookAllowHosts: ['127.0.0.1'] } };
			const { record: webhook } = await addWebhook(hooks, admin, {
				guildId,
				guildLocale: LOCALE,
				format: 'standard',
				events: 'all',
				url: 'http://127.0.0.1:9/hook',
			});
			await testWebhook(hooks, admin, guildId, webhook.id);
			const text = {
				server: { id: guildId, name: '' },
				account: null,
				title: 't',
				text: 't',
				figures: {},
				details: {},
			};
			await queueWebhookEvent({ store: webhookStoreOf(ctx), now: Date.now }, guildId, 'alert.fired', text);

			// A member's records.
			await link(ctx, memberId, memberKey);
			await setGoal(ctx, member, { ...goal, scope: 'me', guildId: null });
			await addNote(ctx, member, { ...note, scope: 'me', guildId: null });
			const digest = await setDigest(ctx, member, { enabled: true, weekday: 'wed', hour: 12, locale: LOCALE });
			// The language last seen is the digest's locale: a sighting in German rewrites the digest.
			await createDigestLocaleTracker(ctx).seen(memberId, 'de');
			const { snapshot } = await ctx.stats.fetchSnapshot(memberKey);
			await ctx.history.record(snapshot);
			await claimCooldowns(ctx.coordinator, 60).take(memberId, 'stats');
			const web = createWebStore(ctx.stores.web);
			await web.createSession({ userId: memberId, username: 'member', globalName: null, locale: 'de', guilds: [] });
			await web.createLoginState('/');

			// The periodic work's claims, keys spelled by the features themselves.
			const claims = [
				reportSlotClaimKey({ guildId, channelId: reportChannel }, '2026-11-27T18'),
				alertFiringClaimKey(alert, 1),
				board.state === 'paused' ? null : boardPostClaimKey(board.record, 1),
				sampleClaimKey('2026-11-29', historyAccountId(memberAccount)),
				sampleLeaseKey('2026-11-29', historyAccountId(memberAccount)),
				samplePassClaimKey('2026-11-29', 3),
				samplePassLeaseKey('2026-11-29', 3),
				historyPruneClaimKey('2026-11-29'),
				serverPurgeClaimKey(ctx.config.linkSecret, guildId, Date.parse('2026-11-20T10:00:00Z')),
			];
			for await (const queued of webhookStoreOf(ctx).queued(guildId)) claims.push(deliveryClaimKey(queued));
			for (const key of claims) if (key) await ctx.coordinator.claim(key, 60_000);
			// At the end of the digest's local hour it is due: sending it claims the week for the member.
			const sent = await sendDueDigest(
				digestJobDeps(ctx, () => digest.nextAt! + 59 * 60_000),
				digest.record!,
			);
			assert.equal(sent, 'sent');
			await claimLock(ctx.coordinator)(`goals:user:${memberId}`, async () => {
				duringLock = await listClaimKeys(ctx);
			});

			listing = await listEverything(ctx);
		});
		after(async () => {
			await run?.cleanup();
			await outside?.close();
		});

		it('every stored key matches exactly one kind', () => {
			assert.ok(listing.length > 20, `${listing.length} entries listed`);
			assert.deepEqual(unclaimed(listing), []);
			assert.deepEqual(
				unclaimed(duringLock.map((key) => ({ namespace: CLAIMS_NAMESPACE, key, value: undefined }))),
				[],
			);
		});

		it('every kind the features wrote was found', () => {
			const found = new Set(listing.map(({ namespace, key }) => kindsOf(namespace, key)[0]?.id));
			for (const id of [
				'link',
				'serverLink',
				'history',
				'report',
				'settings',
				'publicLink',
				'publicLinkToken',
				'session',
				'statChannel',
				'alert',
				'board',
				'memberGoals',
				'serverGoals',
				'memberNotes',
				'serverNotes',
				'digest',
				'serverLeft',
				'webhook',
				'webhookQueue',
				'webhookLog',
				'renameBudget',
				'loginState',
				'statsCache',
				'cooldown',
				'workClaim',
			]) {
				assert.ok(found.has(id), `a ${id} record was stored and listed`);
			}
			assert.ok(
				duringLock.some((key) => kindsOf(CLAIMS_NAMESPACE, key)[0]?.id === 'lock'),
				'a lock was listed while held',
			);
			assert.ok(
				listing.some(({ key }) => key.startsWith(`digest-send:${memberId}:`)),
				"the digest's send claim was listed",
			);
		});

		it("owners() names each record's member, server and account", () => {
			const memberHistory = historyAccountId(memberAccount);
			const serverHistory = historyAccountId(serverAccount);
			const expected: Record<string, RecordOwners> = {
				link: who({ members: [memberId], accounts: [memberHistory] }),
				serverLink: who({ members: [admin.userId], servers: [guildId], accounts: [serverHistory] }),
				report: who({ members: [admin.userId], servers: [guildId] }),
				settings: who({ servers: [guildId] }),
				publicLink: who({ servers: [guildId] }),
				publicLinkToken: who({ servers: [guildId] }),
				session: who({ members: [memberId] }),
				statChannel: who({ members: [admin.userId], servers: [guildId] }),
				alert: who({ members: [admin.userId], servers: [guildId] }),
				board: who({ members: [admin.userId], servers: [guildId] }),
				memberGoals: who({ members: [memberId] }),
				serverGoals: who({ members: [admin.userId], servers: [guildId] }),
				memberNotes: who({ members: [memberId] }),
				serverNotes: who({ servers: [guildId] }),
				digest: who({ members: [memberId] }),
				serverLeft: who({ servers: [guildId] }),
				webhook: who({ members: [admin.userId], servers: [guildId] }),
				webhookQueue: who({ servers: [guildId] }),
				webhookLog: who({ servers: [guildId] }),
				renameBudget: who({}),
				loginState: who({}),
				statsCache: who({}),
				cooldown: who({ members: [memberId] }),
			};
			const checked = new Set<string>();
			for (const { namespace, key, value } of listing) {
				const [kind] = kindsOf(namespace, key);
				assert.ok(kind);
				const owners = sorted(kind.owners(key, value));
				if (kind.id === 'history') {
					assert.deepEqual(owners, who({ accounts: [key] }), key);
					assert.ok([memberHistory, serverHistory].includes(key), 'the history of a linked account');
				} else if (kind.id === 'workClaim') {
					const named = [...owners.members, ...owners.servers];
					assert.ok(
						named.every((id) => id === guildId || id === memberId),
						`${key} names ${named.join(', ')}`,
					);
				} else {
					assert.deepEqual(owners, expected[kind.id], `${kind.id} ${key}`);
				}
				checked.add(kind.id);
			}
			assert.ok(checked.has('history'));
			const digest = listing.find(({ key }) => key === `digest:${memberId}`);
			assert.equal((digest?.value as { locale?: string } | undefined)?.locale, 'de', 'the language last seen');
		});
	});
}
