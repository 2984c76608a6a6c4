// Records stored before the one-shape refactor (issue 31) stay readable after it. The fixture is every Keyv entry a
// store held after the version at commit 6ed74ce wrote one record of each kind through its own actions (SQLite,
// raw values as list-entries gave them). Here those raw entries are written into an empty store on SQLite, Redis
// and PostgreSQL exactly as a backend keeps them, and read back through today's stores and actions: each read must
// give what the old version was asked to store.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openBotServices, type BotServices } from '../../src/app/services.js';
import { listBoards } from '../../src/boards/board-actions.js';
import { loadConfig } from '../../src/config.js';
import type { Actor } from '../../src/core/actor.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { kindOf, storedValue } from '../../src/core/record-kinds.js';
import { digestStoreOf } from '../../src/digests/digest-store.js';
import { goalStoreOf } from '../../src/goals/goal-store.js';
import { historyAccountId } from '../../src/history/account-id.js';
import { createLogger } from '../../src/logger.js';
import { listReports } from '../../src/reports/report-actions.js';
import { guildOfPublicToken, publicToken } from '../../src/settings/public-page.js';
import { ALL_NAMESPACES, type NamespaceName } from '../../src/store/namespaces.js';
import { listAlerts } from '../../src/watch/alert-actions.js';
import { listStatChannels } from '../../src/watch/stat-channel-actions.js';
import { storeTargets } from '../actions/store-runs.js';
import { usable } from '../discord/shared-stores.js';

/** The LINK_SECRET the fixture was sealed with: 32 bytes of 0x11, a test value only. */
const FIXTURE_LINK_SECRET = 'ERERERERERERERERERERERERERERERERERERERERERE=';
/** The keys the old version linked, issued by a throwaway stats service for the fixture. */
const SERVER_KEY = 'ask_AB79OMP2WBOiJX2qmqcGakZPKWnaZV5tnVoMEgMY';
const MEMBER_KEY = 'ask_PcNzHDIRKjQgpuNj740vv9fW4BrUrd6qDEfVB44r';
const GUILD = '1576491918781841408';
const ALERT_CHANNEL = '1576491918781841411';
const REPORT_CHANNEL = '1576491918781841412';
const BOARD_CHANNEL = '1576491918781841413';
const VOICE_CHANNEL = '1576491918781841450';
const ADMIN = '410000000000000001';
const MEMBER = '420000000000000002';
const PUBLIC_TOKEN = 'qQhFDp5yRvH2nK7cbMM8Fg';

const admin: Actor = { userId: ADMIN, canManageServer: true, roleIds: [], origin: 'dashboard' };

interface FixtureEntry {
	namespace: NamespaceName;
	key: string;
	value: string;
}

const fixture: FixtureEntry[] = readFileSync(new URL('../fixtures/store-before-shape.jsonl', import.meta.url), 'utf8')
	.split('\n')
	.filter((line) => line !== '')
	.map((line) => JSON.parse(line) as FixtureEntry);

/** The value the old version stored under `key` (Keyv's `value` inside the raw entry). */
function stored(namespace: NamespaceName, key: string): unknown {
	const entry = fixture.find((candidate) => candidate.namespace === namespace && candidate.key === key);
	assert.ok(entry, `the fixture holds ${namespace} ${key}`);
	return storedValue(entry.value);
}

describe('the fixture of records stored before the one-shape refactor', () => {
	it('holds only known namespaces, and every key matches exactly one kind', () => {
		assert.ok(fixture.length >= 14, `${fixture.length} entries`);
		for (const { namespace, key } of fixture) {
			assert.ok(ALL_NAMESPACES.includes(namespace), namespace);
			assert.ok(kindOf(namespace, key), `${namespace} ${key} matches exactly one kind`);
		}
		const kinds = new Set(fixture.map(({ namespace, key }) => kindOf(namespace, key)?.id));
		for (const id of [
			'link',
			'serverLink',
			'settings',
			'publicLink',
			'publicLinkToken',
			'report',
			'statChannel',
			'alert',
			'board',
			'memberGoals',
			'serverGoals',
			'digest',
			'history',
		]) {
			assert.ok(kinds.has(id), `a ${id} record is in the fixture`);
		}
	});
});

for (const target of await storeTargets()) {
	const title = 'records stored before the one-shape refactor read back with the current code';
	if (target.name !== 'sqlite' && !usable(target, title)) continue;

	describe(`${title} on ${target.name}`, () => {
		let dir: string;
		let services: BotServices;
		let ctx: CoreContext;

		before(async () => {
			dir = mkdtempSync(join(tmpdir(), 'adstats-before-shape-'));
			// Nothing here reaches Discord or the stats service: every read comes from the store.
			const config = loadConfig(
				{
					DISCORD_TOKEN: 'fixture-token',
					DISCORD_APPLICATION_ID: '100000000000000000',
					DISCORD_API_URL: 'http://127.0.0.1:9',
					STATS_API_BASE_URL: 'http://127.0.0.1:9',
					STORE_URL: target.url ?? `sqlite://${join(dir, 'bot.sqlite')}`,
					LINK_SECRET: FIXTURE_LINK_SECRET,
					CHART_RENDERER: 'none',
					HISTORY_SAMPLING: 'off',
					LOG_LEVEL: 'warn',
				},
				'bot',
			);
			const namespacePrefix =
				target.name === 'sqlite' ? undefined : `bs${process.pid}x${Math.random().toString(36).slice(2, 8)}-`;
			services = await openBotServices(config, createLogger('warn', { write: () => {} }), { namespacePrefix });
			ctx = services.ctx;
			for (const { namespace, key, value } of fixture) {
				await ctx.stores.backend.writeRaw(ctx.stores.namespace(namespace), { key, raw: value });
			}
		});
		after(async () => {
			if (ctx) {
				for (const { namespace, key } of fixture) {
					await ctx.stores.backend.keyv(ctx.stores.namespace(namespace)).delete(key);
				}
			}
			await services?.close();
			rmSync(dir, { recursive: true, force: true });
		});

		it("the member's and the server's links open with the same secret", async () => {
			const member = await ctx.links.getUserKey(MEMBER);
			assert.equal(member?.apiKey, MEMBER_KEY);
			assert.deepEqual(member?.info, {
				accountName: 'Fixture_Member',
				linkedAt: (stored('links', `user:${MEMBER}`) as { linkedAt: number }).linkedAt,
				verified: true,
				linkedBy: null,
				keyHint: 'B44r',
			});
			const server = await ctx.links.getServerLink(GUILD);
			assert.equal(server?.readable, true);
			assert.equal(server?.accountName, 'Fixture_Server');
			assert.equal(server?.linkedBy, ADMIN);
			assert.equal((await ctx.links.getServerKey(GUILD))?.apiKey, SERVER_KEY);
		});

		it('settings and the public page', async () => {
			const settings = await ctx.settings.get(GUILD);
			assert.equal(settings.defaultDays, 7);
			assert.equal(settings.defaultMetric, 'sends');
			assert.equal(settings.language, 'auto');
			assert.deepEqual(settings.deleted, []);
			assert.equal(await publicToken(ctx, GUILD), PUBLIC_TOKEN);
			assert.equal(await guildOfPublicToken(ctx, PUBLIC_TOKEN), GUILD);
		});

		it('the report, stat channel, alert and board, as their lists show them', async () => {
			const { reports } = await listReports(ctx, admin, GUILD);
			assert.equal(reports.length, 1);
			assert.deepEqual(reports[0]!.record, stored('reports', `report:${GUILD}:${REPORT_CHANNEL}`));
			assert.equal(reports[0]!.record.weekday, 'fri');
			assert.equal(reports[0]!.record.hour, 18);
			assert.equal(reports[0]!.record.timezone, 'Europe/Berlin');
			assert.equal(reports[0]!.counted, true);

			const statChannels = await listStatChannels(ctx, admin, GUILD);
			assert.deepEqual(statChannels.records, [stored('watch', `statchannel:${GUILD}:${VOICE_CHANNEL}`)]);
			assert.equal(statChannels.records[0]!.figure, 'sends-all');

			const alerts = await listAlerts(ctx, admin, GUILD);
			assert.equal(alerts.records.length, 1);
			const alert = alerts.records[0]!;
			assert.deepEqual(alert, stored('watch', `alert:${GUILD}:${alert.id}`));
			assert.equal(alert.channelId, ALERT_CHANNEL);
			assert.equal(alert.kind, 'sends-milestone');
			assert.equal(alert.threshold, 1_000_000_000);

			const boards = await listBoards(ctx, admin, GUILD);
			assert.deepEqual(boards.records, [stored('watch', `board:${GUILD}:${BOARD_CHANNEL}`)]);
			assert.equal(boards.records[0]!.days, 7);
		});

		it("the member's and the server's goals", async () => {
			const goals = goalStoreOf(ctx);
			const memberGoals = await goals.read({ scope: 'me', userId: MEMBER });
			assert.deepEqual(
				memberGoals.map(({ metric, period, target, setBy }) => ({ metric, period, target, setBy })),
				[{ metric: 'sends', period: 'month', target: 250, setBy: MEMBER }],
			);
			assert.deepEqual(memberGoals, (stored('watch', `goals:user:${MEMBER}`) as { goals: unknown }).goals);
			const serverGoals = await goals.read({ scope: 'server', guildId: GUILD });
			assert.deepEqual(
				serverGoals.map(({ metric, period, target, setBy }) => ({ metric, period, target, setBy })),
				[{ metric: 'sends', period: 'month', target: 1000, setBy: ADMIN }],
			);
		});

		it('the digest, with its locale', async () => {
			const digest = await digestStoreOf(ctx).get(MEMBER);
			assert.deepEqual(digest, stored('watch', `digest:${MEMBER}`));
			assert.equal(digest?.enabled, true);
			assert.equal(digest?.weekday, 'wed');
			assert.equal(digest?.hour, 12);
			assert.equal(digest?.locale, 'de');
		});

		it("each linked account's daily history", async () => {
			for (const account of ['Fixture_Member', 'Fixture_Server']) {
				const id = historyAccountId(account);
				const history = await ctx.history.read(id);
				assert.ok(history, `${account}'s history is readable`);
				assert.deepEqual(history, stored('history', id));
				assert.ok(Object.keys(history.days).length >= 30, `${account}: ${Object.keys(history.days).length} days`);
			}
		});
	});
}
