// The goal actions as both front ends call them, with the services the bot opens, the Discord stand-in for the audit
// channel and the real stats service for the keys: the refusals, one goal per metric and period, the limit of 4 held
// when two processes add at once on a shared store, and the figures listGoals answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Actor } from '../../src/core/actor.js';
import { UserFacingError } from '../../src/errors.js';
import { listGoals, removeGoal, setGoal } from '../../src/goals/goal-actions.js';
import { setSettings } from '../../src/settings/settings-actions.js';
import { link } from '../../src/stats/link-actions.js';
import { setServerKey } from '../../src/stats/server-key-actions.js';
import { uniqueSnowflake, usable } from '../discord/shared-stores.js';
import {
	startOutside,
	startStoreRun,
	storeTargets,
	type OpenedCore,
	type Outside,
	type StoreRun,
} from '../actions/store-runs.js';

const LOCALE = 'en-US';
const actorOf = (userId: string, canManageServer: boolean, origin: Actor['origin'] = 'discord'): Actor => ({
	userId,
	canManageServer,
	roleIds: [],
	origin,
});

async function refusal(promise: Promise<unknown>): Promise<UserFacingError> {
	const error = await promise.then(
		() => null,
		(reason: unknown) => reason,
	);
	assert.ok(error instanceof UserFacingError, `expected a refusal, got ${String(error)}`);
	return error;
}

for (const target of await storeTargets()) {
	const title = 'goal actions';
	if (target.name !== 'sqlite' && !usable(target, title)) continue;
	const shared = target.name !== 'sqlite';

	describe(`${title} on ${target.name}`, () => {
		const admin = actorOf(uniqueSnowflake('41'), true, 'dashboard');
		const member = actorOf(uniqueSnowflake('42'), false);
		const stranger = actorOf(uniqueSnowflake('43'), false);
		let outside: Outside;
		let run: StoreRun;
		let web: OpenedCore;
		let other: OpenedCore;
		let guildId: string;
		let auditChannel: string;
		const server = () => ({ scope: 'server', guildId, guildLocale: LOCALE });
		const mine = () => ({ scope: 'me', guildId, guildLocale: LOCALE });

		before(async () => {
			outside = await startOutside();
			run = await startStoreRun(target, outside);
			web = await run.open();
			other = shared ? await run.open() : web;
			const guild = outside.sandbox.guilds[0]!;
			guildId = guild.id;
			auditChannel = guild.channelIds[1]!;
			await setSettings(
				web.ctx,
				admin,
				guildId,
				{ 'audit-channel': { id: auditChannel, type: 0 } },
				{ guildLocale: LOCALE },
			);
		});
		after(async () => {
			await run?.cleanup();
			await outside?.close();
		});

		it('refuses: no link for scope:me, no server key, no Manage Server for scope:server, target 0', async () => {
			const input = { metric: 'sends', period: 'month', target: 1000 };
			assert.equal((await refusal(setGoal(web.ctx, member, { ...mine(), ...input }))).key, 'goal.needsLink');
			assert.equal((await refusal(setGoal(web.ctx, admin, { ...server(), ...input }))).key, 'goal.needsServerKey');
			await setServerKey(web.ctx, admin, guildId, outside.createAccount(`Goals_${target.name}`), {
				guildLocale: LOCALE,
			});
			const denied = await refusal(setGoal(web.ctx, member, { ...server(), ...input }));
			assert.equal(denied.key, 'errors.manageServerRequired');
			assert.deepEqual(denied.vars, { command: 'goal' });
			assert.equal(
				(await refusal(removeGoal(web.ctx, member, { ...server(), ...input }))).key,
				'errors.manageServerRequired',
			);
			for (const bad of [0, -5, 2.5, null]) {
				const error = await refusal(setGoal(web.ctx, admin, { ...server(), ...input, target: bad }));
				assert.equal(error.key, 'goal.invalidTarget', String(bad));
			}
			assert.equal(
				(await refusal(setGoal(web.ctx, admin, { ...server(), ...input, metric: 'conversion' }))).key,
				'goal.invalidMetric',
			);
			assert.equal(
				(await refusal(setGoal(web.ctx, admin, { ...server(), ...input, period: 'year' }))).key,
				'goal.invalidPeriod',
			);
			assert.equal(
				(await refusal(setGoal(web.ctx, admin, { ...input, scope: 'server', guildId: null }))).key,
				'stats.serverScopeGuildOnly',
			);
			assert.deepEqual((await listGoals(web.ctx, admin, server())).goals, [], 'nothing stored by a refusal');
		});

		it('a server goal is set, replaced (one per metric and period), listed with figures, with audit lines', async () => {
			const seen = outside.sandbox.channelMessages(auditChannel).length;
			await setGoal(web.ctx, admin, { ...server(), metric: 'sends', period: 'month', target: 1000 });
			const { goal } = await setGoal(web.ctx, admin, { ...server(), metric: 'sends', period: 'month', target: 20000 });
			assert.equal(goal.target, 20000);
			// Showing a server's goals needs Manage Server too (DESIGN's rule for scope:server).
			assert.equal((await refusal(listGoals(other.ctx, member, server()))).key, 'errors.manageServerRequired');
			const listed = await listGoals(other.ctx, admin, server());
			assert.equal(listed.goals.length, 1);
			const [figures] = listed.goals;
			assert.equal(figures?.target, 20000);
			assert.ok((figures?.progress ?? 0) > 0, 'the demo account sends every day');
			assert.ok(figures?.forecast, 'the stats service keeps 30 days of sends: a forecast');
			assert.ok(figures.forecast.low >= figures.progress);
			const lines = outside.sandbox
				.channelMessages(auditChannel)
				.slice(seen)
				.map((message) => message.content);
			assert.equal(lines.length, 2, lines.join('\n'));
			assert.match(
				lines[1]!,
				new RegExp(
					`^🎯 <@${admin.userId}> \\(dashboard\\) set the server goal sends this month to 20,000 \\(<t:\\d+:F>\\)\\.$`,
					'u',
				),
			);
		});

		it('a member goal needs their own link and never shows on the server', async () => {
			await link(web.ctx, member.userId, outside.createAccount(`GoalMember_${target.name}`));
			await setGoal(web.ctx, member, { ...mine(), metric: 'joins', period: 'week', target: 5 });
			const own = await listGoals(other.ctx, member, mine());
			assert.deepEqual(
				own.goals.map((goal) => [goal.metric, goal.period, goal.target]),
				[['joins', 'week', 5]],
			);
			assert.deepEqual(
				(await listGoals(web.ctx, admin, server())).goals.map((goal) => goal.metric),
				['sends'],
			);
			assert.equal((await refusal(listGoals(web.ctx, stranger, mine()))).key, 'goal.needsLink');
			assert.deepEqual(await removeGoal(web.ctx, member, { ...mine(), metric: 'joins', period: 'week' }), {
				owner: { scope: 'me', userId: member.userId },
				metric: 'joins',
				period: 'week',
				removed: true,
			});
			assert.equal((await removeGoal(web.ctx, member, { ...mine(), metric: 'joins', period: 'week' })).removed, false);
		});

		it(`a fifth goal: four fill every metric and period, so a fifth set replaces one${shared ? ', also from two processes at once' : ''}`, async () => {
			await setGoal(web.ctx, admin, { ...server(), metric: 'sends', period: 'week', target: 5000 });
			await setGoal(web.ctx, admin, { ...server(), metric: 'joins', period: 'month', target: 300 });
			const results = await Promise.allSettled([
				setGoal(web.ctx, admin, { ...server(), metric: 'joins', period: 'week', target: 70 }),
				setGoal(other.ctx, admin, { ...server(), metric: 'joins', period: 'week', target: 80 }),
			]);
			assert.ok(results.every((result) => result.status === 'fulfilled'));
			const four = (await listGoals(web.ctx, admin, server())).goals;
			assert.deepEqual(
				four.map((goal) => `${goal.metric}-${goal.period}`),
				['sends-month', 'sends-week', 'joins-month', 'joins-week'],
			);
			assert.ok([70, 80].includes(four[3]!.target));
			await setGoal(other.ctx, admin, { ...server(), metric: 'sends', period: 'month', target: 30000 });
			const after = (await listGoals(other.ctx, admin, server())).goals;
			assert.equal(after.length, 4);
			assert.equal(after[0]!.target, 30000);
		});
	});
}
