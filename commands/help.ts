import type { CommandInteraction } from '../src/interactions/types.js';

export { definition } from './definitions/help.js';

const HELP_TEXT = [
	'**Advertising stats in Discord**',
	'`/link`: paste your API key into a private form. The bot checks it and stores it encrypted.',
	'`/stats`: sends and joins for today, 7 days, 30 days and all time, with a chart.',
	'  `scope:server` shows the key a server admin linked for this server; `scope:me` (default) your own.',
	'  `days:` 7, 14, 30 or 90 days in the chart; `share:true` posts the result publicly.',
	'  A private result has a **Share in channel** button.',
	'`/unlink`: the bot forgets your key.',
	'`/server-key set|remove|status`: server admins (Manage Server) link one key for the whole server.',
	'Your key is never shown back in full and never a command option: use the form.',
].join('\n');

export async function execute(interaction: CommandInteraction): Promise<void> {
	await interaction.reply({ content: HELP_TEXT }, 'private');
}
