import { resolveLocale, type Locale } from '../i18n/index.js';
import type { ServerSettings } from './settings-record.js';
import type { SettingsStore } from './settings-store.js';

/** The language of a server's public posts, reports and audit lines: its `language` setting, else its own locale. */
export function serverLanguage(settings: Pick<ServerSettings, 'language'>, guildLocale: string | null): Locale {
	return settings.language !== 'auto' ? settings.language : resolveLocale(guildLocale);
}

/** The server's language for public posts and channel names; its Discord locale when the settings cannot be read. */
export async function serverLocale(
	ctx: { settings: Pick<SettingsStore, 'get'> },
	guildId: string,
	guildLocale: string | null,
): Promise<Locale> {
	try {
		return serverLanguage(await ctx.settings.get(guildId), guildLocale);
	} catch {
		return resolveLocale(guildLocale ?? 'en-US');
	}
}
