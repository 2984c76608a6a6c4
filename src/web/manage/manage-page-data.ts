// What the manage page shows, and the small helpers every one of its sections words itself with.
import type { FacingMessage, Locale, MessageKey, Translate } from '../../i18n/index.js';
import type { LinkStatus } from '../../links/link-model.js';
import type { ReportListing } from '../../reports/report-actions.js';
import type { ServerSettings } from '../../settings/settings-record.js';
import type { WatchList } from '../../watch/watch-actions.js';
import type { AlertRecord, StatChannelRecord } from '../../watch/watch-record.js';
import type { BoardRecord } from '../../boards/board-record.js';
import type { GoalFigures } from '../../goals/goal-figures.js';
import type { Goal } from '../../goals/goal-record.js';
import type { Note } from '../../notes/note-record.js';
import type { WebhookListing } from '../../webhooks/webhook-actions.js';
import type { ChannelFacts, RoleFacts } from '../bot-guilds.js';
import { discordTextToHtml, type MentionNames, type SafeHtml } from '../html.js';
import type { ListedThing } from './manage-lists.js';

/** Everything the manage page shows, read when it loads. */
export interface ManagePageData {
	t: Translate;
	locale: Locale;
	now: number;
	guildId: string;
	guildName: string;
	/** `?lang=xx` when the member chose a language in the URL, kept by every form and link; else ''. */
	langQuery: string;
	/** The outcome of the form sent just before, as a message. */
	done: FacingMessage | null;
	key: LinkStatus | null;
	/** The name of the member who linked the key, when the bot can still read them. */
	linkerName: string | null;
	settings: ServerSettings;
	/** The roles a setting may name: never @everyone (it has the server's id), nor a bot's own. */
	roles: RoleFacts[];
	channels: ChannelFacts[];
	reports: ReportListing;
	statChannels: WatchList<StatChannelRecord>;
	alerts: WatchList<AlertRecord>;
	/** The server's goals (src/goals). */
	goals?: readonly Goal[];
	goalFigures?: readonly GoalFigures[];
	/** The server's notes (src/notes). */
	notes?: readonly Note[];
	/** The server's outgoing webhooks with their last deliveries (src/webhooks). */
	webhooks?: readonly WebhookListing[];
	/** The server's boards (src/boards). */
	boards?: WatchList<BoardRecord>;
	/** The public page's address while it is on. */
	publicUrl: string | null;
	names: MentionNames;
}

/** What wording a Discord text for the page needs. */
export type PageWording = Pick<ManagePageData, 't' | 'names' | 'locale' | 'now'>;

/** Where a section's forms post: the server's route with the page's `?lang=`. */
export type FormTarget = Pick<ManagePageData, 'guildId' | 'langQuery'>;

export function action(page: FormTarget, what: string): string {
	return `/servers/${page.guildId}/${what}${page.langQuery}`;
}

export function listed(page: FormTarget, name: string): ListedThing {
	return { name, action: action(page, name) };
}

/** A Discord-flavoured catalogue text (mentions, `code`, timestamps) as the page shows it. */
export function text(page: PageWording, key: MessageKey, vars?: Record<string, unknown>): SafeHtml {
	return discordText(page, page.t(key, vars));
}

/** Words already translated, in Discord's markup, as the page shows them. */
export function discordText(page: PageWording, words: string): SafeHtml {
	return discordTextToHtml(words, { names: page.names, locale: page.locale, now: page.now });
}

/** A channel by the name the server gives it now. */
export function channelName(page: PageWording, channelId: string): SafeHtml {
	return text(page, 'settings.value.channel', { channelId });
}
