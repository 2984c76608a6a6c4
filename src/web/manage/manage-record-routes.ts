import { Hono } from 'hono';
import { addBoard, removeBoard } from '../../boards/board-actions.js';
import { removeGoal, setGoal } from '../../goals/goal-actions.js';
import { addNote, removeNote } from '../../notes/note-actions.js';
import { removeWebhook } from '../../webhooks/webhook-actions.js';
import { addReport, removeReport } from '../../reports/report-actions.js';
import { addAlert, removeAlert } from '../../watch/alert-actions.js';
import { addStatChannel, removeStatChannel } from '../../watch/stat-channel-actions.js';
import { chosenChannel } from './manage-access.js';
import { formSession } from '../middleware.js';
import type { WebDeps } from '../web-deps.js';
import type { WebEnv } from '../web-env.js';
import { field, manageForms, numberField } from './manage-forms.js';
import { pausedOutcome } from './manage-outcomes.js';

/**
 * The manage page's list forms: reports, stat channels, boards, alerts, goals and notes. Each adds with the fields named
 * as its slash command's options, or removes with `action=remove` and the identifying field.
 */
export function manageRecordRoutes(deps: WebDeps): Hono<WebEnv> {
	const manage = new Hono<WebEnv>();
	const { posted, refusing, back } = manageForms(deps);

	manage.post('/servers/:guildId/reports', formSession, async (c) => {
		const { server, form } = await posted(c);
		const { actor, guildId, guild } = server;
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () =>
				removeReport(deps, actor, guildId, field(form, 'channel'), guild.preferredLocale),
			);
			return back(c, server, removed ? 'report-removed' : 'nothing-removed', 'reports');
		}
		const channel = await chosenChannel(deps.botGuilds, guildId, field(form, 'channel'));
		const weekday = field(form, 'weekday');
		const added = await refusing(c, server, async () =>
			addReport(deps, actor, guildId, {
				channel,
				every: field(form, 'every') || null,
				hour: numberField(form, 'hour'),
				timezone: field(form, 'timezone') || null,
				weekday: weekday === '' ? null : weekday,
				guildLocale: guild.preferredLocale,
			}),
		);
		const outcome =
			added.previous === null ? 'report-added' : added.previous.paused ? 'report-resumed' : 'report-replaced';
		return back(c, server, outcome, 'reports');
	});

	manage.post('/servers/:guildId/stat-channels', formSession, async (c) => {
		const { server, form } = await posted(c);
		const { actor, guildId, guild } = server;
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () =>
				removeStatChannel(deps, actor, guildId, field(form, 'channel')),
			);
			return back(c, server, removed ? 'statchannel-removed' : 'nothing-removed', 'stat-channels');
		}
		const channel = await chosenChannel(deps.botGuilds, guildId, field(form, 'channel'));
		const added = await refusing(c, server, () =>
			addStatChannel(deps, actor, guildId, {
				channel,
				figure: field(form, 'figure') || null,
				guildLocale: guild.preferredLocale,
			}),
		);
		const outcome = added.state === 'paused' ? pausedOutcome('statchannel', added.pause) : 'statchannel-added';
		return back(c, server, outcome, 'stat-channels');
	});

	manage.post('/servers/:guildId/boards', formSession, async (c) => {
		const { server, form } = await posted(c);
		const { actor, guildId, guild } = server;
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () => removeBoard(deps, actor, guildId, field(form, 'channel')));
			return back(c, server, removed ? 'board-removed' : 'nothing-removed', 'boards');
		}
		const channel = await chosenChannel(deps.botGuilds, guildId, field(form, 'channel'));
		const added = await refusing(c, server, () =>
			addBoard(deps, actor, guildId, {
				channel,
				days: field(form, 'days') || null,
				metric: field(form, 'metric') || null,
				guildLocale: guild.preferredLocale,
			}),
		);
		return back(c, server, added.state === 'paused' ? pausedOutcome('board', added.pause) : 'board-added', 'boards');
	});

	manage.post('/servers/:guildId/alerts', formSession, async (c) => {
		const { server, form } = await posted(c);
		const { actor, guildId, guild } = server;
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () => removeAlert(deps, actor, guildId, field(form, 'id')));
			return back(c, server, removed ? 'alert-removed' : 'nothing-removed', 'alerts');
		}
		const channel = await chosenChannel(deps.botGuilds, guildId, field(form, 'channel'));
		await refusing(c, server, () =>
			addAlert(deps, actor, guildId, {
				kind: field(form, 'kind') || null,
				channel,
				threshold: numberField(form, 'threshold'),
				guildLocale: guild.preferredLocale,
			}),
		);
		return back(c, server, 'alert-added', 'alerts');
	});

	manage.post('/servers/:guildId/goals', formSession, async (c) => {
		const { server, form } = await posted(c);
		const scope = { scope: 'server', guildId: server.guildId, guildLocale: server.guild.preferredLocale };
		const goal = { metric: field(form, 'metric') || null, period: field(form, 'period') || null };
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () => removeGoal(deps, server.actor, { ...scope, ...goal }));
			return back(c, server, removed ? 'goal-removed' : 'nothing-removed', 'goals');
		}
		await refusing(c, server, () =>
			setGoal(deps, server.actor, { ...scope, ...goal, target: numberField(form, 'target') }),
		);
		return back(c, server, 'goal-set', 'goals');
	});

	manage.post('/servers/:guildId/notes', formSession, async (c) => {
		const { server, form } = await posted(c);
		const scope = { scope: 'server', guildId: server.guildId, guildLocale: server.guild.preferredLocale };
		if (field(form, 'action') === 'remove') {
			const note = field(form, 'note') || null;
			const { removed } = await refusing(c, server, () => removeNote(deps, server.actor, { ...scope, note }));
			return back(c, server, removed ? 'note-removed' : 'nothing-removed', 'notes');
		}
		await refusing(c, server, () =>
			addNote(deps, server.actor, { ...scope, date: field(form, 'date') || null, text: field(form, 'text') }),
		);
		return back(c, server, 'note-added', 'notes');
	});

	// Adding a webhook stays with `/webhook add`, whose private reply shows its signing secret once.
	manage.post('/servers/:guildId/webhooks', formSession, async (c) => {
		const { server, form } = await posted(c);
		if (field(form, 'action') !== 'remove') return back(c, server, 'nothing-removed', 'webhooks');
		const removed = await refusing(c, server, () =>
			removeWebhook(deps, server.actor, server.guildId, field(form, 'webhook') || null),
		);
		return back(c, server, removed ? 'webhook-removed' : 'nothing-removed', 'webhooks');
	});

	return manage;
}
