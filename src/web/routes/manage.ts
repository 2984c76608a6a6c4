import { Hono, type Context } from 'hono';
import { requireManageServer } from '../../actor.js';
import { UserFacingError } from '../../errors.js';
import { addReport, listReports, removeReport } from '../../reports/report-actions.js';
import { publicToken, setPublicPage } from '../../settings/public-page.js';
import { resetSettings, setSettings } from '../../settings/settings-actions.js';
import type { SettingsInput } from '../../settings/read-options.js';
import type { ServerSettings } from '../../settings/settings-record.js';
import { removeServerKey, serverKeyStatus, setServerKey } from '../../stats/server-key-actions.js';
import { addAlert, listAlerts, removeAlert } from '../../watch/alert-actions.js';
import { listGoals, listServerGoalRecords, removeGoal, setGoal } from '../../goals/goal-actions.js';
import { addStatChannel, listStatChannels, removeStatChannel } from '../../watch/stat-channel-actions.js';
import { addBoard, listBoards, removeBoard } from '../../boards/board-actions.js';
import { refusalError } from '../form-refusal.js';
import { HttpError } from '../http-error.js';
import { chosenChannel, mentionNamesOf, readManagedServer, type ManagedServer } from '../manage-access.js';
import { manageOutcomeLine, type ManageOutcome } from '../manage-outcomes.js';
import { manageBody } from '../manage-page.js';
import { formSession, pageSession } from '../middleware.js';
import { sendPage } from '../respond.js';
import type { Site } from '../site.js';
import type { WebDeps } from '../web-deps.js';
import { langQuery, localeOf, translatorOf, type MemberEnv, type WebEnv } from '../web-env.js';

type Form = Record<string, string | File>;

/** A form field as text; '' when absent (or a file, which no form of ours sends). */
function field(form: Form, name: string): string {
	const value = form[name];
	return typeof value === 'string' ? value : '';
}

/** A whole number as a form sends it; null when empty, NaN when not a number (the action names the range). */
function numberField(form: Form, name: string): number | null {
	const value = field(form, name).trim();
	if (value === '') return null;
	return /^-?\d{1,15}(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
}

/**
 * The manage page and its forms. Every POST: the app checked `Origin`; a session, else a 401 page; the member's
 * Manage Server read with the bot token now (never the page's cache), then the core action, the same one the
 * slash command calls; 303 back with the outcome, or the command's words on a 400/403 page with nothing stored.
 */
export function manageRoutes(deps: WebDeps, site: Site): Hono<WebEnv> {
	const manage = new Hono<WebEnv>();
	const now = deps.now ?? Date.now;

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
		const [channels, key, settings, reports, statChannels, alerts, token, goals, boards, goalFigures] =
			await Promise.all([
				deps.botGuilds.channels(guildId),
				serverKeyStatus(deps, actor, guildId),
				deps.settings.get(guildId),
				listReports(deps, actor, guildId),
				listStatChannels(deps, actor, guildId),
				listAlerts(deps, actor, guildId),
				publicToken(deps, guildId),
				listServerGoalRecords(deps, actor, guildId),
				listBoards(deps, actor, guildId),
				// Where each goal stands, as /goal show says it; a server without a key or a stats service that does not
				// answer leaves the rows with their targets only, and the page still loads.
				listGoals(deps, actor, { scope: 'server', guildId, guildLocale: guild.preferredLocale }).then(
					(list) => list.goals,
					() => [],
				),
			]);
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
		const heading = t('web.manage.heading', { server: guild.name });
		return sendPage(
			c,
			heading,
			manageBody({
				t,
				locale: localeOf(c),
				now: now(),
				guildId,
				guildName: guild.name,
				langQuery: langQuery(c, '?'),
				done: manageOutcomeLine(c.req.query('done')),
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
				boards,
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
		const input = await refusing(c, server, async () =>
			settingsInputOf(server, form, await deps.settings.get(guildId)),
		);
		if (Object.keys(input).length === 0) {
			await refusing(c, server, () => requireManageServer(actor, 'settings'));
			return back(c, server, 'settings-unchanged', 'settings');
		}
		await refusing(c, server, () => setSettings(deps, actor, guildId, input, options));
		return back(c, server, 'settings-saved', 'settings');
	});

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
		await refusing(c, server, () =>
			addStatChannel(deps, actor, guildId, {
				channel,
				figure: field(form, 'figure') || null,
				guildLocale: guild.preferredLocale,
			}),
		);
		return back(c, server, 'statchannel-added', 'stat-channels');
	});

	manage.post('/servers/:guildId/boards', formSession, async (c) => {
		const { server, form } = await posted(c);
		const { actor, guildId, guild } = server;
		if (field(form, 'action') === 'remove') {
			const { removed } = await refusing(c, server, () => removeBoard(deps, actor, guildId, field(form, 'channel')));
			return back(c, server, removed ? 'board-removed' : 'nothing-removed', 'boards');
		}
		const channel = await chosenChannel(deps.botGuilds, guildId, field(form, 'channel'));
		await refusing(c, server, () =>
			addBoard(deps, actor, guildId, {
				channel,
				days: field(form, 'days') || null,
				metric: field(form, 'metric') || null,
				guildLocale: guild.preferredLocale,
			}),
		);
		return back(c, server, 'board-added', 'boards');
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

	/** The form's fields and the member as the bot token reads them now. */
	async function posted(c: Context<MemberEnv>): Promise<{ server: ManagedServer; form: Form }> {
		const server = await readManagedServer(deps.botGuilds, c.get('member'), c.req.param('guildId') ?? '', {
			fresh: true,
		});
		return { server, form: await c.req.parseBody() };
	}

	async function refusing<T>(c: Context<MemberEnv>, server: ManagedServer, run: () => Promise<T> | T): Promise<T> {
		try {
			return await run();
		} catch (error) {
			const channels = await deps.botGuilds.channels(server.guildId).catch(() => null);
			throw refusalError(error, {
				forbidden: !server.actor.canManageServer,
				back: { href: managePath(c, server), label: 'web.manage.back' },
				names: mentionNamesOf(server.guild, channels),
			});
		}
	}

	/** POST-redirect-GET: a reload of the page shows the outcome again and sends nothing twice. */
	function back(c: Context<MemberEnv>, server: ManagedServer, outcome: ManageOutcome, section: string) {
		const lang = langQuery(c, '&');
		return c.redirect(`/servers/${server.guildId}/manage?done=${outcome}${lang}#${section}`, 303);
	}

	function managePath(c: Context<MemberEnv>, server: ManagedServer): string {
		return `/servers/${server.guildId}/manage${langQuery(c, '?')}`;
	}

	/**
	 * The settings form as `/settings set` options, only those that differ from what is stored: the audit line
	 * names what changed, not every field of the form. A role must be one of the server's (never @everyone); a
	 * channel's type comes from the server's list.
	 */
	async function settingsInputOf(server: ManagedServer, form: Form, current: ServerSettings): Promise<SettingsInput> {
		const input: SettingsInput = {};
		const differs = (name: string, stored: string) => name in form && field(form, name) !== stored;
		for (const [name, stored] of [
			['server-stats-role', current.serverStatsRoleId],
			['share-role', current.shareRoleId],
		] as const) {
			if (!differs(name, stored ?? '')) continue;
			const roleId = field(form, name);
			const known = server.guild.roles.some((role) => role.id === roleId && role.id !== server.guildId);
			// Not from the page's list: Discord's picker could not have sent it either.
			if (roleId !== '' && !known) throw new UserFacingError('settings.roleNotChoosable');
			input[name] = roleId;
		}
		for (const [name, stored] of [
			['share-channel', current.shareChannelId],
			['audit-channel', current.auditChannelId],
		] as const) {
			if (differs(name, stored ?? ''))
				input[name] = await chosenChannel(deps.botGuilds, server.guildId, field(form, name));
		}
		if (differs('default-days', String(current.defaultDays))) input['default-days'] = field(form, 'default-days');
		if (differs('default-metric', current.defaultMetric)) input['default-metric'] = field(form, 'default-metric');
		if (differs('language', current.language)) input.language = field(form, 'language');
		return input;
	}

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
