import { Hono } from 'hono';
import { describeExpectedError } from '../../error-messages.js';
import { requireManageServer } from '../../core/actor.js';
import { listReports } from '../../reports/report-actions.js';
import { publicToken, setPublicPage } from '../../settings/public-page.js';
import { resetSettings, setSettings } from '../../settings/settings-actions.js';
import type { SettingsInput } from '../../settings/read-options.js';
import type { ServerSettings } from '../../settings/settings-record.js';
import { removeServerKey, serverKeyStatus, setServerKey } from '../../stats/server-key-actions.js';
import { listAlerts } from '../../watch/alert-actions.js';
import { listGoals, listServerGoalRecords } from '../../goals/goal-actions.js';
import { UserFacingError } from '../../errors.js';
import { listNotes } from '../../notes/note-actions.js';
import { listWebhooks } from '../../webhooks/webhook-actions.js';
import { listStatChannels } from '../../watch/stat-channel-actions.js';
import { listBoards } from '../../boards/board-actions.js';
import { HttpError } from '../http-error.js';
import { chosenChannel, mentionNamesOf, readManagedServer, type ManagedServer } from './manage-access.js';
import { manageOutcomeLine } from './manage-outcomes.js';
import { manageBody, manageKeylessBody } from './manage-page.js';
import { formSession, pageSession } from '../middleware.js';
import { sendPage } from '../respond.js';
import type { Site } from '../site.js';
import type { WebDeps } from '../web-deps.js';
import { langQuery, localeOf, translatorOf, type WebEnv } from '../web-env.js';
import { field, manageForms, type Form } from './manage-forms.js';
import { manageRecordRoutes } from './manage-record-routes.js';

/**
 * The manage page and its forms. Every POST: the app checked `Origin`; a session, else a 401 page; the member's
 * Manage Server read with the bot token now (never the page's cache), then the core action, the same one the
 * slash command calls; 303 back with the outcome, or the command's words on a 400/403 page with nothing stored.
 */
export function manageRoutes(deps: WebDeps, site: Site): Hono<WebEnv> {
	const manage = new Hono<WebEnv>();
	const now = deps.now ?? Date.now;
	const { posted, refusing, back } = manageForms(deps);

	manage.get('/servers/:guildId/manage', pageSession, async (c) => {
		const t = translatorOf(c);
		const server = await readManagedServer(deps.botGuilds, c.get('member'), c.req.param('guildId'));
		if (!server.actor.canManageServer) {
			throw new HttpError(
				403,
				{ key: 'web.manage.manageServerNeeded' },
				{
					links: [{ href: '/', label: { key: 'web.back' } }],
				},
			);
		}
		const { guildId, guild, actor } = server;
		const heading = t('web.manage.heading', { server: guild.name });
		const key = await serverKeyStatus(deps, actor, guildId);
		const page = {
			t,
			locale: localeOf(c),
			now: now(),
			guildId,
			guildName: guild.name,
			langQuery: langQuery(c, '?'),
			done: manageOutcomeLine(c.req.query('done')),
		};
		if (key === null) {
			// The same 404 as the server page, which a server without a key has none of; the admin who opened it still
			// gets the one form that gives the server a key, and the outcome of the one that removed it.
			const body = manageKeylessBody({ ...page, key, linkerName: null, names: mentionNamesOf(guild, null) });
			return sendPage(c, heading, body, 404);
		}
		const [channels, settings, reports, statChannels, alerts, token, goals, boards, goalFigures] = await Promise.all([
			deps.botGuilds.channels(guildId),
			deps.settings.get(guildId),
			listReports(deps, actor, guildId),
			listStatChannels(deps, actor, guildId),
			listAlerts(deps, actor, guildId),
			publicToken(deps, guildId),
			listServerGoalRecords(deps, actor, guildId),
			listBoards(deps, actor, guildId),
			// Where each goal stands, as /goal show says it; a server without a key or a stats service that does not
			// answer (an expected failure) leaves the rows with their targets only, and the page still loads. A bug
			// goes on to the app's error page.
			listGoals(deps, actor, { scope: 'server', guildId, guildLocale: guild.preferredLocale }).then(
				(list) => list.goals,
				(error: unknown) => {
					if (describeExpectedError(error) === null) throw error;
					return [];
				},
			),
		]);
		// The notes need the key readable, as every server-scope action does; a key to link again shows none.
		const notes = await listNotes(deps, actor, { scope: 'server', guildId, guildLocale: guild.preferredLocale }).then(
			(list) => list.notes,
			(error: unknown) => {
				if (error instanceof UserFacingError) return [];
				throw error;
			},
		);
		const webhooks = await listWebhooks(deps, actor, guildId);
		const linker = key?.linkedBy ? await deps.botGuilds.member(guildId, key.linkedBy).catch(() => null) : null;
		const names = mentionNamesOf(guild, channels);
		// A channel Discord no longer lists still has its line: by the words `/statchannel remove` offers it with.
		const listed = [
			...reports.reports.map((r) => r.record),
			...statChannels.records,
			...alerts.records,
			...boards.records,
		];
		const channelNames = new Map(names.channels);
		for (const { channelId } of listed) {
			if (!channelNames.has(channelId)) {
				channelNames.set(channelId, t('watch.statChannel.deletedChannel', { channelId }));
			}
		}
		return sendPage(
			c,
			heading,
			manageBody({
				...page,
				key,
				linkerName: linker?.name ?? null,
				settings: withoutMissing(settings, guild.roles, channels),
				// A bot's own role is no one's to hold; one set with the slash command still shows as chosen.
				roles: guild.roles.filter(
					(role) =>
						role.id !== guildId &&
						(!role.managed || role.id === settings.serverStatsRoleId || role.id === settings.shareRoleId),
				),
				channels: channels ?? [],
				reports,
				statChannels,
				alerts,
				goals,
				goalFigures,
				notes,
				boards,
				webhooks,
				publicUrl: token ? `${site.origin}/p/${token}` : null,
				names: { ...names, channels: channelNames },
			}),
		);
	});

	manage.post('/servers/:guildId/key', formSession, async (c) => {
		const { server, form } = await posted(c);
		const options = { guildLocale: server.guild.preferredLocale };
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () => removeServerKey(deps, server.actor, server.guildId, options));
			return back(c, server, removed ? 'key-removed' : 'key-absent', 'key');
		}
		// The key goes to the action and nowhere else: not a log line, not the page, not the redirect.
		await refusing(c, server, () => setServerKey(deps, server.actor, server.guildId, field(form, 'key'), options));
		return back(c, server, 'key-set', 'key');
	});

	manage.post('/servers/:guildId/settings', formSession, async (c) => {
		const { server, form } = await posted(c);
		const { actor, guildId } = server;
		const options = { guildLocale: server.guild.preferredLocale };
		if (field(form, 'action') === 'reset') {
			// The form's box is `required`, so a browser sends no reset unticked; `action=reset` alone is the route's
			// interface (docs/web-dashboard.md), as the slash command's confirmation button is its own.
			await refusing(c, server, () => resetSettings(deps, actor, guildId, options));
			return back(c, server, 'settings-reset', 'settings');
		}
		// The whole form goes to the action, which changes (and names in the audit line) only what differs.
		const input = await settingsInputOf(server, form);
		const { changed } = await refusing(c, server, () =>
			setSettings(deps, actor, guildId, input, { ...options, wholeForm: true }),
		);
		return back(c, server, changed.length === 0 ? 'settings-unchanged' : 'settings-saved', 'settings');
	});

	manage.post('/servers/:guildId/public', formSession, async (c) => {
		const { server, form } = await posted(c);
		const enabled = field(form, 'enabled');
		if (enabled !== 'on' && enabled !== 'off') {
			// A member without Manage Server hears that first, whatever the form held.
			await refusing(c, server, () => requireManageServer(server.actor, 'public-page'));
			throw new HttpError(400, { key: 'web.badRequestTitle' });
		}
		await refusing(c, server, () =>
			setPublicPage(deps, server.actor, server.guildId, enabled === 'on', {
				guildLocale: server.guild.preferredLocale,
			}),
		);
		if (field(form, 'return') === 'manage') return back(c, server, `public-${enabled}`, 'public');
		return c.redirect(`/servers/${server.guildId}?done=public-${enabled}${langQuery(c, '&')}`, 303);
	});

	/** The settings form as `/settings set` options, each field it holds; a channel's type from the server's list. */
	async function settingsInputOf(server: ManagedServer, form: Form): Promise<SettingsInput> {
		const input: SettingsInput = {};
		for (const name of ['server-stats-role', 'share-role', 'default-days', 'default-metric', 'language'] as const) {
			if (name in form) input[name] = field(form, name);
		}
		for (const name of ['share-channel', 'audit-channel'] as const) {
			if (name in form) input[name] = await chosenChannel(deps.botGuilds, server.guildId, field(form, name));
		}
		return input;
	}

	manage.route('/', manageRecordRoutes(deps));
	return manage;
}

/** A role or channel the server no longer has is unset already: the selects show it so. */
function withoutMissing(
	settings: ServerSettings,
	roles: readonly { id: string }[],
	channels: readonly { id: string }[] | null,
): ServerSettings {
	const hasRole = (id: string | null) => id !== null && roles.some((role) => role.id === id);
	const hasChannel = (id: string | null) => id !== null && (channels === null || channels.some((c) => c.id === id));
	return {
		...settings,
		serverStatsRoleId: hasRole(settings.serverStatsRoleId) ? settings.serverStatsRoleId : null,
		shareRoleId: hasRole(settings.shareRoleId) ? settings.shareRoleId : null,
		shareChannelId: hasChannel(settings.shareChannelId) ? settings.shareChannelId : null,
		auditChannelId: hasChannel(settings.auditChannelId) ? settings.auditChannelId : null,
	};
}
