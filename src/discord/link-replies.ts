import type { Translate } from '../i18n/index.js';
import type { LinkInfo } from '../links/link-model.js';
import { sanitizeAccountName } from '../render/embed.js';

/** Confirms a stored link; shows only the key's last 4 characters. */
export function linkConfirmation(t: Translate, info: LinkInfo, subject: 'user' | 'server'): string {
	const keyHint = info.keyHint;
	if (!info.verified || info.accountName === null) {
		return t(subject === 'user' ? 'link.unverifiedUser' : 'link.unverifiedServer', { keyHint });
	}
	// The name is escaped and cannot mention anyone; the bold markers are part of the text.
	const account = sanitizeAccountName(info.accountName);
	return t(subject === 'user' ? 'link.linkedUser' : 'link.linkedServer', { account, keyHint });
}
