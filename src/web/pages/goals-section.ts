// The goals on a dashboard page: a progress bar per goal (an HTML <progress>, so it shows without JavaScript), the
// same figures in a table, and the data the page's script draws: progress so far, then the forecast with its band
// over the period's remaining days.
import { describeGoalFigures, describeGoalName, goalPercent } from '../../goals/describe-goal.js';
import type { GoalFigures } from '../../goals/goal-figures.js';
import type { Translate } from '../../i18n/index.js';
import { formatCount } from '../../render/format.js';
import { html, jsonForScript, type SafeHtml } from '../html.js';

/** One goal's chart: cumulative figures by day; the forecast and band start at today's progress. */
export interface GoalChartData {
	label: string;
	dates: string[];
	progress: (number | null)[];
	expected: (number | null)[];
	low: (number | null)[];
	high: (number | null)[];
	target: number;
	labels: { progress: string; forecast: string; band: string; target: string };
}

/**
 * The band is DESIGN's at the period's end (± 1.28 · s · √n); before it, the spread of k days out of n grows as
 * √k, the same random-walk reasoning, and its low end never dips below the progress already made.
 */
export function goalChartData(t: Translate, goal: GoalFigures): GoalChartData {
	const after = goal.remaining.slice(1);
	const dates = [...goal.elapsed.map((day) => day.date), ...after.map((day) => day.date)];
	const progress: (number | null)[] = [];
	let sum = 0;
	for (const day of goal.elapsed) progress.push((sum += day.value ?? 0));
	const before = goal.elapsed.slice(0, -1).map((): number | null => null);
	// Each forecast line leaves the progress line at today's point.
	const expected = [...before, goal.progress];
	const low = [...before, goal.progress];
	const high = [...before, goal.progress];
	if (goal.forecast) {
		const n = goal.remaining.length;
		const halfAtEnd = goal.forecast.high - goal.forecast.expected;
		let cumulative = goal.progress + (goal.remaining[0]?.expected ?? 0);
		after.forEach((day, index) => {
			cumulative += day.expected;
			const half = halfAtEnd * Math.sqrt((index + 2) / n);
			expected.push(cumulative);
			low.push(Math.max(goal.progress, cumulative - half));
			high.push(cumulative + half);
		});
	}
	return {
		label: t('goal.fieldName', { goal: describeGoalName(t, goal) }),
		dates,
		progress,
		expected: goal.forecast ? expected : [],
		low: goal.forecast ? low : [],
		high: goal.forecast ? high : [],
		target: goal.target,
		labels: {
			progress: t('web.goals.progress'),
			forecast: t('web.goals.forecast'),
			band: t('web.goals.band'),
			target: t('web.goals.target'),
		},
	};
}

export function goalsSection(goals: readonly GoalFigures[], t: Translate, locale: string): SafeHtml {
	if (goals.length === 0) return html``;
	const count = (value: number) => formatCount(Math.round(value), locale);
	return html`<section class="goals" aria-labelledby="goals-heading">
		<h2 id="goals-heading">${t('web.goals.title')}</h2>
		${goals.map((goal, index) => {
			const { progress, outlook } = describeGoalFigures(locale, goal);
			return html`<div class="goal">
				<p><strong>${describeGoalName(t, goal)}</strong>: ${progress} · ${outlook}</p>
				<progress value="${String(Math.min(goal.progress, goal.target))}" max="${String(goal.target)}">
					${String(goalPercent(goal))} %
				</progress>
				<div class="chart-box goal-box">
					<canvas
						class="goal-chart"
						id="goal-chart-${String(index)}"
						width="800"
						height="240"
						role="img"
						aria-label="${describeGoalName(t, goal)}"
					></canvas>
				</div>
				<script type="application/json" class="goal-data" data-canvas="goal-chart-${String(index)}">
					${jsonForScript(goalChartData(t, goal))}
				</script>
			</div>`;
		})}
		<table class="goals-table">
			<thead>
				<tr>
					<th scope="col">${t('web.goals.goal')}</th>
					<th scope="col">${t('web.goals.progress')}</th>
					<th scope="col">${t('web.goals.target')}</th>
					<th scope="col">${t('web.goals.forecast')}</th>
					<th scope="col" class="band-column">${t('web.goals.low')}</th>
					<th scope="col" class="band-column">${t('web.goals.high')}</th>
				</tr>
			</thead>
			<tbody>
				${goals.map(
					(goal) =>
						html`<tr>
							<th scope="row">${describeGoalName(t, goal)}</th>
							<td>${count(goal.progress)}</td>
							<td>${count(goal.target)}</td>
							${forecastCell(goal, count)}
							<td class="band-column">${goal.forecast ? count(goal.forecast.low) : '—'}</td>
							<td class="band-column">${goal.forecast ? count(goal.forecast.high) : '—'}</td>
						</tr>`,
				)}
			</tbody>
		</table>
	</section>`;
}

/**
 * The forecast, and its band beside it for a phone: there the table drops its low and high columns, which would
 * make it wider than the screen in German, and the band stands under the forecast as the embed words it.
 */
function forecastCell(goal: GoalFigures, count: (value: number) => string): SafeHtml {
	if (!goal.forecast) return html`<td>—</td>`;
	const { expected, low, high } = goal.forecast;
	return html`<td>${count(expected)}<span class="band-stacked"> (${count(low)}–${count(high)})</span></td>`;
}
