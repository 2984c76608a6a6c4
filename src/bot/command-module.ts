import type {
	ButtonInteraction,
	ChatInputCommandInteraction,
	ModalSubmitInteraction,
	RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { BotContext } from './context.js';

/**
 * The shape every file in commands/ exports. Follow-up interactions use the custom id
 * `<command>:<action>[:<arg>…]`, so the router finds the module by the first segment.
 */
export interface CommandModule {
	definition: { name: string; toJSON(): RESTPostAPIChatInputApplicationCommandsJSONBody };
	execute(interaction: ChatInputCommandInteraction, ctx: BotContext): Promise<void>;
	onModal?(interaction: ModalSubmitInteraction, ctx: BotContext): Promise<void>;
	onButton?(interaction: ButtonInteraction, ctx: BotContext): Promise<void>;
}
