import { CHART_DAYS, type ChartDays } from '../render/chart.js';
import { UserFacingError } from '../interactions/user-facing-error.js';
import { isStatsScope, type StatsScope } from './scope.js';

export const DEFAULT_DAYS: ChartDays = 30;

/** What a member asked to see. */
export interface StatsRequest {
	scope: StatsScope;
	days: ChartDays;
}

/** Whose figures, seen from where: the target of a stats request. */
export interface StatsTarget {
	scope: StatsScope;
	userId: string;
	guildId: string | null;
}

export function isChartDays(value: unknown): value is ChartDays {
	return (CHART_DAYS as readonly unknown[]).includes(value);
}

/** Checks what Discord enforces anyway: a stale client or a crafted request may not. */
export function parseStatsRequest(input: { scope: string | null; days: number | null }): StatsRequest {
	const scope = input.scope ?? 'me';
	const days = input.days ?? DEFAULT_DAYS;
	if (!isStatsScope(scope)) throw new UserFacingError('stats.invalidScope');
	if (!isChartDays(days)) throw new UserFacingError('stats.invalidDays', { choices: CHART_DAYS.join(', ') });
	return { scope, days };
}
