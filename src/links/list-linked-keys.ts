import type { Stores } from '../store/open-stores.js';
import { RelinkNeededError } from '../errors.js';
import { isServerLinkKey, isUserLinkKey, serverLinkKey, userLinkKey } from './link-keys.js';
import { linkKeys } from './link-entries.js';
import type { LinkStore } from './link-model.js';

/** One readable link: its store key (safe to log) and its decrypted API key (never to be logged). */
export interface LinkedKeyEntry {
	linkKey: string;
	apiKey: string;
}

/**
 * Every member and server link whose key a configured secret opens, one at a time (memory stays flat however
 * many links there are). Links removed meanwhile and records no secret opens are skipped.
 */
export async function* listLinkedKeys(
	stores: Pick<Stores, 'backend' | 'namespace'>,
	links: Pick<LinkStore, 'getUserKey' | 'getServerKey'>,
): AsyncGenerator<LinkedKeyEntry> {
	for await (const linkKey of linkKeys(stores as Stores)) {
		const linked = await openLink(links, linkKey).catch((error: unknown) => {
			if (error instanceof RelinkNeededError) return null;
			throw error;
		});
		if (linked) yield { linkKey, apiKey: linked.apiKey };
	}
}

async function openLink(links: Pick<LinkStore, 'getUserKey' | 'getServerKey'>, linkKey: string) {
	if (isUserLinkKey(linkKey)) return links.getUserKey(linkKey.slice(userLinkKey('').length));
	if (isServerLinkKey(linkKey)) return links.getServerKey(linkKey.slice(serverLinkKey('').length));
	return null;
}
