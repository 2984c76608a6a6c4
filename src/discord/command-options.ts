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
 * request cannot make a handler see a string where it expects a number. A class, not an object of
 * closures: one is built for every interaction, and its methods are shared.
 */
export function readOptions(
	leaves: readonly RawOption[],
	resolved: APIInteractionDataResolved | undefined,
): CommandOptions {
	return new RawCommandOptions(leaves, resolved);
}

class RawCommandOptions implements CommandOptions {
	constructor(
		private readonly leaves: readonly RawOption[],
		private readonly resolved: APIInteractionDataResolved | undefined,
	) {}

	string(name: string): string | null {
		const found = this.value(name);
		return typeof found === 'string' ? found : null;
	}

	integer(name: string): number | null {
		const found = this.value(name);
		return typeof found === 'number' && Number.isInteger(found) ? found : null;
	}

	number(name: string): number | null {
		const found = this.value(name);
		return typeof found === 'number' && Number.isFinite(found) ? found : null;
	}

	boolean(name: string): boolean | null {
		const found = this.value(name);
		return typeof found === 'boolean' ? found : null;
	}

	channel(name: string): { id: string; type: number | null } | null {
		const id = this.value(name);
		if (typeof id !== 'string') return null;
		const channel = this.resolved && 'channels' in this.resolved ? this.resolved.channels?.[id] : undefined;
		return { id, type: channel ? channel.type : null };
	}

	role(name: string): { id: string } | null {
		const id = this.value(name);
		return typeof id === 'string' ? { id } : null;
	}

	private value(name: string): unknown {
		for (const option of this.leaves) {
			if (option.name === name) return 'value' in option ? option.value : undefined;
		}
		return undefined;
	}
}
