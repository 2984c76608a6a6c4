import type { LinkInfo } from '../links/types.js';
import { sanitizeAccountName } from '../render/embed.js';

/** An account name as members see it: one line, markdown escaped and unable to mention anyone. */
export function formatAccountName(name: string | null): string {
	return name === null ? 'an unverified account' : `**${sanitizeAccountName(name)}**`;
}

/** Confirms a stored link; shows only the key's last 4 characters. */
export function linkConfirmation(info: LinkInfo, subject: 'your account' | 'this server'): string {
	const hint = `key ending \`…${info.keyHint}\``;
	if (!info.verified) {
		return (
			`Key saved for ${subject} (${hint}), but it could not be verified: statistics come with the V2 update ` +
			'of the advertising service. `/stats` will work once they are available.'
		);
	}
	return `Linked ${subject} to ${formatAccountName(info.accountName)} (${hint}). Run \`/stats\` to see the figures.`;
}
