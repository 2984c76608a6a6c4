import { actorOf } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { CommandInteraction } from '../src/discord/interaction.js';
import { describeGoalFigures, describeGoalName } from '../src/goals/describe-goal.js';
import { listGoals, removeGoal, setGoal, type GoalScopeInput } from '../src/goals/goal-actions.js';
import { memberTranslator, resolveLocale } from '../src/i18n/index.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'goal';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	// Every answer is private; show reads the stats endpoint before it can answer.
	await interaction.defer('private');
	const scope: GoalScopeInput = {
		scope: interaction.options.string('scope'),
		guildId: interaction.guildId,
		guildLocale: interaction.guildLocale,
	};
	const content =
		interaction.subcommand === 'set'
			? await set(interaction, ctx, scope)
			: interaction.subcommand === 'remove'
				? await remove(interaction, ctx, scope)
				: await show(interaction, ctx, scope);
	await interaction.editReply({ content });
}

async function set(interaction: CommandInteraction, ctx: BotContext, scope: GoalScopeInput): Promise<string> {
	const { goal } = await setGoal(ctx, actorOf(interaction), {
		...scope,
		metric: interaction.options.string('metric'),
		period: interaction.options.string('period'),
		target: interaction.options.integer('target'),
	});
	const t = memberTranslator(interaction);
	const target = new Intl.NumberFormat(resolveLocale(interaction.locale)).format(goal.target);
	return t('goal.set', { goal: describeGoalName(t, goal), target });
}

async function remove(interaction: CommandInteraction, ctx: BotContext, scope: GoalScopeInput): Promise<string> {
	const removal = await removeGoal(ctx, actorOf(interaction), {
		...scope,
		metric: interaction.options.string('metric'),
		period: interaction.options.string('period'),
	});
	const t = memberTranslator(interaction);
	return t(removal.removed ? 'goal.removed' : 'goal.notFound', { goal: describeGoalName(t, removal) });
}

/** The goals with the same figures as the /stats embed's goal fields. */
async function show(interaction: CommandInteraction, ctx: BotContext, scope: GoalScopeInput): Promise<string> {
	const listed = await listGoals(ctx, actorOf(interaction), scope);
	const t = memberTranslator(interaction);
	const header = t(listed.owner.scope === 'server' ? 'goal.listHeaderServer' : 'goal.listHeaderMe', {
		count: listed.goals.length,
		max: listed.max,
	});
	const lines = listed.goals.map((figures) => {
		const { progress, outlook } = describeGoalFigures(interaction.locale, figures);
		return `**${describeGoalName(t, figures)}**: ${t('goal.fieldValue', { progress, outlook })}`;
	});
	return [header, ...(lines.length > 0 ? lines : [t('goal.listEmpty')])].join('\n');
}
