import { UserFacingError } from '../errors.js';
import type { MessageKey } from '../i18n/catalogue.js';
import type { LinkStore } from '../links/link-model.js';

/**
 * What a feature that shows the server's account needs before it does anything: a server key the bot can read.
 * Without one it refuses with `missingKey` (each feature names its own command in it); with one that needs linking
 * again, with the words every feature uses.
 */
export async function requireServerKey(
	ctx: { links: Pick<LinkStore, 'getServerLink'> },
	guildId: string,
	missingKey: MessageKey,
): Promise<void> {
	const link = await ctx.links.getServerLink(guildId);
	if (!link) throw new UserFacingError(missingKey);
	if (!link.readable) throw new UserFacingError('errors.serverRelinkNeeded');
}
