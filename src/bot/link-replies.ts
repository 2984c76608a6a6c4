import { escapeMarkdown } from 'discord.js';
import type { LinkInfo } from '../links/types.js';

/** An account name as members see it: markdown escaped and unable to mention anyone. */
export function formatAccountName(name: string | null): string {
	if (name === null) return 'an unverified account';
	const escaped = escapeMarkdown(name.slice(0, 100)).replace(/@/g, '@\u200b');
	return `**${escaped}**`;
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
