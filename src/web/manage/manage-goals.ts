// The manage page's Goals section: the server's goals, a form with `/goal set`'s options, a remove button per goal.
import { describeGoalFigures, describeGoalName } from '../../goals/describe-goal.js';
import type { GoalFigures } from '../../goals/goal-figures.js';
import { GOAL_METRICS, GOAL_PERIODS, MAX_GOALS_PER_SCOPE, type Goal } from '../../goals/goal-record.js';
import type { Translate } from '../../i18n/index.js';
import { formatCount } from '../../render/format.js';
import { select } from './form-controls.js';
import { html, type SafeHtml } from '../html.js';

export interface ManageGoalsData {
	t: Translate;
	locale: string;
	/** Where the section's forms post: `/servers/{id}/goals` with the page's `?lang=`. */
	action: string;
	goals: readonly Goal[];
	/** Where each goal stands (progress and forecast); empty when the figures could not be read just now. */
	figures: readonly GoalFigures[];
}

/** A goal's state on its row: its progress and forecast when the figures were read, else only its target. */
function goalState(page: ManageGoalsData, goal: Goal): string {
	const figures = page.figures.find((found) => found.metric === goal.metric && found.period === goal.period);
	if (!figures) return `${page.t('web.goals.target')}: ${formatCount(goal.target, page.locale)}`;
	const { progress, outlook } = describeGoalFigures(page.locale, figures);
	return `${progress}; ${outlook}`.replaceAll('**', '');
}

export function goalsManageSection(page: ManageGoalsData): SafeHtml {
	const { t } = page;
	return html`<section id="goals" class="manage">
		<h2>${t('web.goals.title')}</h2>
		<p>${t('goal.listHeaderServer', { count: page.goals.length, max: MAX_GOALS_PER_SCOPE }).replaceAll('**', '')}</p>
		${
			page.goals.length === 0
				? html`<p class="empty">${t('web.goals.none')}</p>`
				: html`<ul class="manage-list">
						${page.goals.map(
							(goal) =>
								html`<li>
									<span id="goals-${goal.metric}-${goal.period}"
										><span class="row-title">${describeGoalName(t, goal)}</span>
										<span class="row-detail">${goalState(page, goal)}</span></span
									>
									<form method="post" action="${page.action}" class="inline">
										<input type="hidden" name="action" value="remove" />
										<input type="hidden" name="metric" value="${goal.metric}" />
										<input type="hidden" name="period" value="${goal.period}" />
										<button type="submit" class="danger" aria-describedby="goals-${goal.metric}-${goal.period}">
											${t('web.goals.remove')}
										</button>
									</form>
								</li>`,
						)}
					</ul>`
		}
		<form method="post" action="${page.action}">
			<h3>${t('web.goals.add')}</h3>
			${select(
				'goal-metric',
				'metric',
				t('goal.commands.metric'),
				GOAL_METRICS.map((metric) => ({ value: metric, label: t(`choices.metric.${metric}`) })),
				GOAL_METRICS[0],
			)}
			<p class="field">
				<label for="goal-target">${t('goal.commands.target')}</label>
				<input id="goal-target" name="target" type="number" min="1" step="1" required inputmode="numeric" />
			</p>
			${select(
				'goal-period',
				'period',
				t('goal.commands.period'),
				GOAL_PERIODS.map((period) => ({ value: period, label: t(`choices.goalPeriod.${period}`) })),
				GOAL_PERIODS[0],
			)}
			<p><button type="submit">${t('web.goals.add')}</button></p>
		</form>
	</section>`;
}
