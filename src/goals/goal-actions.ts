// Setting, removing and listing goals: the whole rule, for `/goal` and the dashboard alike.
import { auditActor, clockOf, requireManageServer, type Actor } from '../core/actor.js';
import { requireServerKey } from '../core/require-server-key.js';
import { UserFacingError } from '../errors.js';
import { translator } from '../i18n/index.js';
import { auditTime, postAudit } from '../settings/audit.js';
import { historyWithSnapshot } from '../stats/account-history.js';
import type { CoreContext } from '../core/core-context.js';
import { fetchStatsFor } from '../stats/resolve-key.js';
import { serverLocale } from '../settings/language.js';
import { describeGoalName } from './describe-goal.js';
import { figuresOfGoals, type GoalFigures } from './goal-figures.js';
import {
	isGoalMetric,
	isGoalPeriod,
	MAX_GOALS_PER_SCOPE,
	type Goal,
	type GoalMetric,
	type GoalOwner,
	type GoalPeriod,
} from './goal-record.js';
import { goalStoreOf } from './goal-store.js';

/** What the goal actions use of the core's services; a CoreContext has all of it. */
export type GoalActionContext = Pick<
	CoreContext,
	'stores' | 'coordinator' | 'config' | 'links' | 'stats' | 'history' | 'settings' | 'guildApi' | 'log' | 'now'
>;

/** Whose goals, as the member chose (`scope`, default `me`) and where they asked from. */
export interface GoalScopeInput {
	scope: string | null;
	/** The server asked from; null in a DM. */
	guildId: string | null;
	/** The server's Discord locale, for the audit line while the server has no language set. */
	guildLocale?: string | null;
}

/** `/goal set`'s options, or the dashboard's form fields, as given: the action checks every one. */
export interface GoalInput extends GoalScopeInput {
	metric: string | null;
	period: string | null;
	target: number | null;
}

export interface GoalList {
	owner: GoalOwner;
	goals: GoalFigures[];
	max: number;
}

/** Sets (or replaces) the scope's goal for the metric and period; the stored goal. */
export async function setGoal(
	ctx: GoalActionContext,
	actor: Actor,
	input: GoalInput,
): Promise<{ owner: GoalOwner; goal: Goal }> {
	const owner = await requireOwner(ctx, actor, input);
	const { metric, period } = readMetricPeriod(input);
	const target = input.target;
	if (target === null || !Number.isInteger(target) || target < 1 || target > Number.MAX_SAFE_INTEGER) {
		throw new UserFacingError('goal.invalidTarget');
	}
	const now = clockOf(ctx)();
	const goal: Goal = { metric, period, target, setBy: actor.userId, setAt: now };
	await goalStoreOf(ctx).update(owner, (goals) => {
		const others = goals.filter((kept) => kept.metric !== metric || kept.period !== period);
		// Replacing a goal keeps the count; only a new metric and period can pass the limit.
		if (others.length >= MAX_GOALS_PER_SCOPE) {
			throw new UserFacingError('goal.tooMany', { max: MAX_GOALS_PER_SCOPE });
		}
		return [...others, goal];
	});
	if (owner.scope === 'server') await auditGoal(ctx, actor, owner.guildId, input, 'goal.audit.set', goal, now);
	return { owner, goal };
}

/** Removes the scope's goal for the metric and period: whether there was one. */
export async function removeGoal(
	ctx: GoalActionContext,
	actor: Actor,
	input: GoalScopeInput & { metric: string | null; period: string | null },
): Promise<{ owner: GoalOwner; metric: GoalMetric; period: GoalPeriod; removed: boolean }> {
	const owner = await requireOwner(ctx, actor, input);
	const { metric, period } = readMetricPeriod(input);
	let removed: Goal | null = null;
	await goalStoreOf(ctx).update(owner, (goals) => {
		removed = goals.find((goal) => goal.metric === metric && goal.period === period) ?? null;
		return removed ? goals.filter((goal) => goal !== removed) : undefined;
	});
	if (removed && owner.scope === 'server') {
		await auditGoal(ctx, actor, owner.guildId, input, 'goal.audit.removed', removed, clockOf(ctx)());
	}
	return { owner, metric, period, removed: removed !== null };
}

/**
 * The scope's goals with their figures (progress, forecast, band) from the account's latest snapshot and history.
 * scope:server needs Manage Server, as setting and removing do.
 */
export async function listGoals(ctx: GoalActionContext, actor: Actor, input: GoalScopeInput): Promise<GoalList> {
	const owner = await requireOwner(ctx, actor, input);
	const goals = await goalStoreOf(ctx).read(owner);
	if (goals.length === 0) return { owner, goals: [], max: MAX_GOALS_PER_SCOPE };
	const target =
		owner.scope === 'server'
			? { scope: 'server' as const, userId: actor.userId, guildId: owner.guildId }
			: { scope: 'me' as const, userId: owner.userId, guildId: input.guildId };
	const now = clockOf(ctx)();
	const record = await historyWithSnapshot(ctx, await fetchStatsFor(ctx, target), now);
	return { owner, goals: figuresOfGoals(goals, record, now), max: MAX_GOALS_PER_SCOPE };
}

/**
 * The owner a scope names, once the actor may use it: scope:server needs a server, a server key, and Manage Server
 * for every use (re-checked here: Discord's default permission only hides a command); scope:me the caller's
 * own link. A goal is kept against the member or the server, never against the key.
 */
async function requireOwner(ctx: GoalActionContext, actor: Actor, input: GoalScopeInput): Promise<GoalOwner> {
	const scope = input.scope ?? 'me';
	if (scope === 'server') {
		if (input.guildId === null) throw new UserFacingError('stats.serverScopeGuildOnly');
		// DESIGN: scope:server needs Manage Server for every subcommand, `show` included.
		requireManageServer(actor, 'goal');
		await requireServerKey(ctx, input.guildId, 'goal.needsServerKey');
		return { scope: 'server', guildId: input.guildId };
	}
	if (scope !== 'me') throw new UserFacingError('stats.invalidScope');
	if (!(await ctx.links.getUserLink(actor.userId))) throw new UserFacingError('goal.needsLink');
	return { scope: 'me', userId: actor.userId };
}

function readMetricPeriod(input: { metric: string | null; period: string | null }): {
	metric: GoalMetric;
	period: GoalPeriod;
} {
	const metric = input.metric;
	const period = input.period ?? 'month';
	if (!isGoalMetric(metric)) throw new UserFacingError('goal.invalidMetric');
	if (!isGoalPeriod(period)) throw new UserFacingError('goal.invalidPeriod');
	return { metric, period };
}

async function auditGoal(
	ctx: GoalActionContext,
	actor: Actor,
	guildId: string,
	input: GoalScopeInput,
	key: 'goal.audit.set' | 'goal.audit.removed',
	goal: Goal,
	now: number,
): Promise<void> {
	const guildLocale = input.guildLocale ?? null;
	const language = await serverLocale(ctx, guildId, guildLocale);
	const vars = {
		actor: auditActor(actor),
		goal: describeGoalName(translator(language), goal),
		target: new Intl.NumberFormat(language).format(goal.target),
		when: auditTime(now),
	};
	await postAudit(ctx, guildId, { key, vars }, { guildLocale });
}

/** The server's goals as stored, without figures: what the manage page lists (Manage Server, like changing them). */
export async function listServerGoalRecords(ctx: GoalActionContext, actor: Actor, guildId: string): Promise<Goal[]> {
	requireManageServer(actor, 'goal');
	return goalStoreOf(ctx).read({ scope: 'server', guildId });
}
