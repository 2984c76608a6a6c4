import type { CommandModule } from '../src/discord/command-module.js';
import * as alert from './alert.js';
import * as board from './board.js';
import * as digest from './digest.js';
import * as exportCommand from './export.js';
import * as goal from './goal.js';
import * as help from './help.js';
import * as link from './link.js';
import * as note from './note.js';
import * as privacy from './privacy.js';
import * as report from './report.js';
import * as serverKey from './server-key.js';
import * as settings from './settings.js';
import * as statchannel from './statchannel.js';
import * as stats from './stats.js';
import * as unlink from './unlink.js';
import * as webhook from './webhook.js';

/** Every slash command with its handlers; the bot's transports route interactions to these. */
export const commandModules: readonly CommandModule[] = [
	stats,
	link,
	unlink,
	serverKey,
	report,
	help,
	exportCommand,
	settings,
	statchannel,
	alert,
	board,
	digest,
	goal,
	privacy,
	note,
	webhook,
];
