import {
	ApplicationCommandOptionType,
	type APIApplicationCommandInteractionDataOption,
	type APIInteractionDataResolved,
} from 'discord.js';
import type { CommandOptions } from './interaction.js';

type RawOption = APIApplicationCommandInteractionDataOption;

/** The chosen subcommand (group segments joined by a space) and the options given to it. */
export function flattenOptions(options: readonly RawOption[] | undefined): {
	subcommand: string | null;
	leaves: readonly RawOption[];
} {
	let current = options ?? [];
	const path: string[] = [];
	for (;;) {
		const nested = current.find(
			(option) =>
				option.type === ApplicationCommandOptionType.Subcommand ||
				option.type === ApplicationCommandOptionType.SubcommandGroup,
		);
		if (!nested || !('options' in nested))
			return { subcommand: path.length > 0 ? path.join(' ') : null, leaves: current };
		path.push(nested.name);
		current = (nested.options ?? []) as readonly RawOption[];
	}
}

/**
 * Typed reads of a command's options. A value of the wrong type reads as absent, so a crafted
 * request cannot make a handler see a string where it expects a number.
 */
export function readOptions(
	leaves: readonly RawOption[],
	resolved: APIInteractionDataResolved | undefined,
): CommandOptions {
	const value = (name: string): unknown => {
		const option = leaves.find((candidate) => candidate.name === name);
		return option && 'value' in option ? option.value : undefined;
	};
	return {
		string: (name) => {
			const found = value(name);
			return typeof found === 'string' ? found : null;
		},
		integer: (name) => {
			const found = value(name);
			return typeof found === 'number' && Number.isInteger(found) ? found : null;
		},
		number: (name) => {
			const found = value(name);
			return typeof found === 'number' && Number.isFinite(found) ? found : null;
		},
		boolean: (name) => {
			const found = value(name);
			return typeof found === 'boolean' ? found : null;
		},
		channel: (name) => {
			const id = value(name);
			if (typeof id !== 'string') return null;
			const channel = resolved && 'channels' in resolved ? resolved.channels?.[id] : undefined;
			return { id, type: channel ? channel.type : null };
		},
		role: (name) => {
			const id = value(name);
			return typeof id === 'string' ? { id } : null;
		},
	};
}
