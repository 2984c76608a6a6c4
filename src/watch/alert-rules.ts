import { FAILED_EXACT_TOLERANCE_MS } from '../history/daily-figures.js';
import type { HistoryRecord } from '../history/record.js';
import { addDays, startOfDate, utcDateOf } from '../history/utc-days.js';
import type { StatsSnapshot } from '../stats-api/snapshot.js';
import type { AlertFiring, AlertKind, AlertState } from './watch-record.js';
import { evaluateGoalAlert, type GoalFiringFigures } from '../goals/goal-alert-rules.js';
import type { Goal } from '../goals/goal-record.js';

/** failed-share counts only once the day has this many attempts (sends + failed sends). */
export const MIN_ATTEMPTS_FOR_SHARE = 20;
/** failed-share re-arms when the share falls below this part of the threshold. */
export const REARM_FRACTION = 0.8;
const HOUR_MS = 3_600_000;

/** What one evaluation sees: the server account's snapshot and its history with that snapshot folded in. */
export interface AlertObservation {
	/** Epoch ms, the bot's clock. */
	now: number;
	snapshot: StatsSnapshot;
	history: HistoryRecord;
	/** The server's goals, for the goal kinds. */
	goals?: readonly Goal[];
}

export interface AlertEvaluation {
	state: AlertState;
	/** Set when this evaluation fires; `state.pending` then holds it too. */
	firing: AlertFiring | null;
}

/**
 * One step of an alert's rule (docs/watch.md, "Alerts"): the next state, and a firing when the
 * threshold is crossed while armed. Pure; a pending firing is kept as it is.
 */
export function evaluateAlert(
	alert: { kind: AlertKind; threshold: number },
	state: AlertState,
	observation: AlertObservation,
): AlertEvaluation {
	const step = RULES[alert.kind](alert.threshold, state, observation);
	if (step.fire === null) return { state: step.state, firing: null };
	const firing: AlertFiring = { number: state.firings + 1, ...step.fire, at: observation.now };
	return {
		state: { ...step.state, armed: false, firings: firing.number, firedAt: observation.now, pending: firing },
		firing,
	};
}

type Step = { state: AlertState; fire: { value: number; since: number; goal?: GoalFiringFigures } | null };
type Rule = (threshold: number, state: AlertState, observation: AlertObservation) => Step;

const notEnoughData = (state: AlertState): Step => ({ state: { ...state, notEnoughData: true }, fire: null });
const roundTenth = (value: number) => Math.round(value * 10) / 10;

/**
 * Failed sends today are `failed_all_time` now minus its reading at the start of the UTC day; the history keeps
 * the day's earliest reading. One taken hours into the day would leave out that morning's failures, so without a
 * reading from the day's first hours the rule says "not enough data yet" (a bot started mid-day) and never guesses.
 */
const failedShare: Rule = (threshold, previous, { now, snapshot, history }) => {
	const today = utcDateOf(now);
	const state = previous.day === today ? previous : { ...previous, day: today, armed: true };
	const first = history.days[today]?.failedAllTime;
	const failedNow = snapshot.sends.failedAllTime;
	const sendsToday = snapshot.sends.today;
	if (!first || first.at - startOfDate(today) > FAILED_EXACT_TOLERANCE_MS) return notEnoughData(state);
	if (failedNow === null || sendsToday === null || failedNow < first.value) return notEnoughData(state);
	const failedToday = failedNow - first.value;
	const attempts = failedToday + sendsToday;
	const share = attempts === 0 ? 0 : (failedToday / attempts) * 100;
	const settled = { ...state, notEnoughData: false };
	if (!settled.armed) {
		return { state: share < threshold * REARM_FRACTION ? { ...settled, armed: true } : settled, fire: null };
	}
	if (attempts < MIN_ATTEMPTS_FOR_SHARE || share < threshold) return { state: settled, fire: null };
	return { state: settled, fire: { value: roundTenth(share), since: startOfDate(today) } };
};

/** Checked once per UTC day, on the first evaluation that knows both days' sends. */
const sendsDrop: Rule = (threshold, state, { now, history }) => {
	const today = utcDateOf(now);
	if (state.day === today) return { state, fire: null };
	const yesterday = addDays(today, -1);
	const sends = history.days[yesterday]?.sends?.value;
	const weekBefore = history.days[addDays(yesterday, -7)]?.sends?.value;
	if (sends === undefined || weekBefore === undefined) return notEnoughData(state);
	const checked = { ...state, day: today, armed: true, notEnoughData: false };
	if (weekBefore === 0) return { state: checked, fire: null };
	const drop = ((weekBefore - sends) / weekBefore) * 100;
	if (drop < threshold) return { state: checked, fire: null };
	return { state: checked, fire: { value: roundTenth(drop), since: startOfDate(yesterday) } };
};

/** Counted from the first evaluation that saw the current all-time figure: never from before the bot watched. */
const noSends: Rule = (threshold, state, { now, snapshot }) => {
	const allTime = snapshot.sends.allTime;
	if (allTime === null) return notEnoughData(state);
	if (state.still?.value !== allTime) {
		return {
			state: { ...state, still: { value: allTime, since: now }, armed: true, notEnoughData: false },
			fire: null,
		};
	}
	const settled = { ...state, notEnoughData: false };
	const hours = (now - state.still.since) / HOUR_MS;
	if (!settled.armed || hours < threshold) return { state: settled, fire: null };
	return { state: settled, fire: { value: Math.floor(hours), since: state.still.since } };
};

const milestone =
	(figure: 'sends' | 'joins'): Rule =>
	(threshold, state, { now, snapshot }) => {
		const allTime = snapshot[figure].allTime;
		if (allTime === null) return notEnoughData(state);
		const settled = { ...state, notEnoughData: false };
		if (state.firings > 0 || !state.armed || allTime < threshold) return { state: settled, fire: null };
		return { state: settled, fire: { value: allTime, since: now } };
	};

const RULES: Record<AlertKind, Rule> = {
	'failed-share': failedShare,
	'sends-drop': sendsDrop,
	'no-sends': noSends,
	'sends-milestone': milestone('sends'),
	'joins-milestone': milestone('joins'),
	'goal-reached': (_threshold, state, observation) =>
		evaluateGoalAlert('goal-reached', state, { ...observation, goals: observation.goals ?? [] }),
	'goal-at-risk': (_threshold, state, observation) =>
		evaluateGoalAlert('goal-at-risk', state, { ...observation, goals: observation.goals ?? [] }),
};
