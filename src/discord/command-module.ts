import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { BotContext } from './context.js';
import type {
	AutocompleteInteraction,
	ComponentInteraction,
	CommandInteraction,
	ModalInteraction,
} from './interaction.js';

/** A command's registration data: what `npm run register` sends, without any handler code. */
export interface CommandDefinition {
	name: string;
	toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody;
}

/**
 * The shape every file in commands/ exports. Follow-up interactions use the custom id
 * `<command>:<action>[:<arg>…]`, so the router finds the module by the first segment.
 */
export interface CommandModule {
	/**
	 * The command's name. The module does not load its definition: building every definition (the option builders'
	 * checks, eight languages' texts) is 24 ms of start-up, and only `npm run register` and the doctor need them.
	 */
	name: string;
	execute(interaction: CommandInteraction, ctx: BotContext): Promise<void>;
	onModal?(interaction: ModalInteraction, ctx: BotContext): Promise<void>;
	onButton?(interaction: ComponentInteraction, ctx: BotContext): Promise<void>;
	onAutocomplete?(interaction: AutocompleteInteraction, ctx: BotContext): Promise<void>;
}
