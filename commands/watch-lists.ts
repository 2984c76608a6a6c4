// `/alert`, `/statchannel` and `/board` list, remove and autocomplete alike: one shape, a set of catalogue keys each.
import type { Actor } from '../src/core/actor.js';
import { actorOf } from '../src/discord/actor-of.js';
import type { AutocompleteInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import type { Translate } from '../src/i18n/index.js';
import type { WatchList } from '../src/watch/watch-actions.js';
import type { WatchPause } from '../src/watch/watch-record.js';

/** Whose catalogue keys (`watch.<words>.listEmpty`, `listHeader`, `resumeHint`, `removed`, `notFound`) a reply uses. */
export type WatchWords = 'alert' | 'statChannel' | 'board';

const MAX_CHOICES = 25;
const MAX_CHOICE_NAME = 100;

/** A header with the count and the limit, one line per record, and how to resume when any is paused. */
export function watchListText<R extends { paused: WatchPause | null }>(
	t: Translate,
	words: WatchWords,
	list: WatchList<R>,
	line: (record: R) => string,
): string {
	if (list.records.length === 0) return t(`watch.${words}.listEmpty`);
	const lines = [
		t(`watch.${words}.listHeader`, { count: list.records.length, max: list.max, minutes: list.everyMinutes }),
		...list.records.map(line),
	];
	if (list.records.some((record) => record.paused)) lines.push(t(`watch.${words}.resumeHint`));
	return lines.join('\n');
}

export function removalText(t: Translate, words: WatchWords, removed: boolean, vars: Record<string, unknown>): string {
	return t(removed ? `watch.${words}.removed` : `watch.${words}.notFound`, vars);
}

/**
 * Offers the server's records whose choice name or value holds what is typed; nothing to a member the list
 * itself would refuse.
 */
export async function respondWithRecords<R extends { paused: WatchPause | null }>(
	interaction: AutocompleteInteraction,
	list: (actor: Actor, guildId: string) => Promise<WatchList<R>>,
	choiceOf: (record: R) => { name: string; value: string },
): Promise<void> {
	if (interaction.guildId === null) return interaction.respond([]);
	const actor = actorOf({
		userId: interaction.userId,
		memberPermissions: interaction.memberPermissions,
		memberRoles: null,
	});
	const listed = await list(actor, interaction.guildId).catch((error: unknown) => {
		if (error instanceof UserFacingError) return null;
		throw error;
	});
	if (!listed) return interaction.respond([]);
	const typed = (interaction.focused?.value ?? '').toLowerCase();
	const choices = listed.records
		.map(choiceOf)
		.map((choice) => ({ ...choice, name: choice.name.slice(0, MAX_CHOICE_NAME) }))
		.filter((choice) => choice.name.toLowerCase().includes(typed) || choice.value.includes(typed));
	await interaction.respond(choices.slice(0, MAX_CHOICES));
}
