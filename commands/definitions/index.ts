import type { CommandDefinition } from '../../src/discord/command-module.js';
import { definition as alert } from './alert.js';
import { definition as board } from './board.js';
import { definition as digest } from './digest.js';
import { definition as exportCommand } from './export.js';
import { definition as goal } from './goal.js';
import { definition as help } from './help.js';
import { definition as link } from './link.js';
import { definition as note } from './note.js';
import { definition as privacy } from './privacy.js';
import { definition as report } from './report.js';
import { definition as serverKey } from './server-key.js';
import { definition as settings } from './settings.js';
import { definition as statchannel } from './statchannel.js';
import { definition as stats } from './stats.js';
import { definition as unlink } from './unlink.js';
import { definition as webhook } from './webhook.js';

/** Every slash command's registration data, without handler code: `npm run register` reads only this. */
export const commandDefinitions: readonly CommandDefinition[] = [
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
