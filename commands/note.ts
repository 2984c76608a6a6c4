import { escapeMarkdown } from 'discord.js';
import { actorOf } from '../src/discord/actor-of.js';
import type { BotContext } from '../src/discord/context.js';
import type { AutocompleteInteraction, CommandInteraction } from '../src/discord/interaction.js';
import { UserFacingError } from '../src/errors.js';
import { memberTranslator } from '../src/i18n/index.js';
import { describeNote, noteChoices } from '../src/notes/describe-note.js';
import { addNote, listNotes, removeNote, type NoteScopeInput } from '../src/notes/note-actions.js';
import type { Note } from '../src/notes/note-record.js';

/** The slash command this module answers: the name its definition registers (test/commands/definitions.test.ts). */
export const name = 'note';

export async function execute(interaction: CommandInteraction, ctx: BotContext): Promise<void> {
	await interaction.defer('private');
	const scope = scopeOf(interaction);
	const content =
		interaction.subcommand === 'add'
			? await add(interaction, ctx, scope)
			: interaction.subcommand === 'remove'
				? await remove(interaction, ctx, scope)
				: await list(interaction, ctx, scope);
	await interaction.editReply({ content });
}

/** The scope's notes, as `/note remove` offers them: the day and the text, the value the note's id. */
export async function onAutocomplete(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void> {
	if (interaction.focused?.name !== 'note') return interaction.respond([]);
	// An autocomplete carries no roles; Manage Server is all scope:server asks.
	const { userId, memberPermissions } = interaction;
	const actor = actorOf({ userId, memberPermissions, memberRoles: null });
	const notes = await listNotes(ctx, actor, scopeOf(interaction)).then(
		(listed) => listed.notes,
		(error: unknown) => {
			// Someone who may not see the scope's notes is offered none.
			if (error instanceof UserFacingError) return [];
			throw error;
		},
	);
	await interaction.respond(noteChoices(notes, interaction.focused.value));
}

function scopeOf(interaction: CommandInteraction | AutocompleteInteraction): NoteScopeInput {
	return {
		scope: interaction.options.string('scope'),
		guildId: interaction.guildId,
		guildLocale: 'guildLocale' in interaction ? interaction.guildLocale : null,
	};
}

/** A note in a reply: the member's words, never markdown. */
const noteLine = (note: Note) => escapeMarkdown(describeNote(note));

async function add(interaction: CommandInteraction, ctx: BotContext, scope: NoteScopeInput): Promise<string> {
	const { owner, note } = await addNote(ctx, actorOf(interaction), {
		...scope,
		date: interaction.options.string('date'),
		text: interaction.options.string('text'),
	});
	const t = memberTranslator(interaction);
	return t(owner.scope === 'server' ? 'note.addedServer' : 'note.addedMe', { note: noteLine(note) });
}

async function remove(interaction: CommandInteraction, ctx: BotContext, scope: NoteScopeInput): Promise<string> {
	const { removed } = await removeNote(ctx, actorOf(interaction), {
		...scope,
		note: interaction.options.string('note'),
	});
	const t = memberTranslator(interaction);
	return removed ? t('note.removed', { note: noteLine(removed) }) : t('note.notFound');
}

async function list(interaction: CommandInteraction, ctx: BotContext, scope: NoteScopeInput): Promise<string> {
	const listed = await listNotes(ctx, actorOf(interaction), scope);
	const t = memberTranslator(interaction);
	const header = t(listed.owner.scope === 'server' ? 'note.listHeaderServer' : 'note.listHeaderMe', {
		count: listed.notes.length,
		max: listed.max,
	});
	if (listed.notes.length === 0) return [header, t('note.listEmpty')].join('\n');
	return fitLines(
		header,
		listed.notes.map((note) => `- ${noteLine(note)}`),
		(count) => t('note.listMore', { count }),
	);
}

/** Discord's 2,000 characters, with room for the closing line. */
const MAX_REPLY_LENGTH = 1900;

/** The header and as many lines as fit, then how many more there are (50 notes of 60 characters do not fit). */
function fitLines(header: string, lines: readonly string[], more: (count: number) => string): string {
	let text = header;
	for (const [index, line] of lines.entries()) {
		if (text.length + line.length + 1 > MAX_REPLY_LENGTH) return `${text}\n${more(lines.length - index)}`;
		text += `\n${line}`;
	}
	return text;
}
