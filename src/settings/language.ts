import { resolveLocale, type Locale } from '../i18n/index.js';
import type { ServerSettings } from './settings-record.js';

/** The language of a server's public posts, reports and audit lines: its `language` setting, else its own locale. */
export function serverLanguage(settings: Pick<ServerSettings, 'language'>, guildLocale: string | null): Locale {
	return settings.language !== 'auto' ? settings.language : resolveLocale(guildLocale);
}
