import { countEntries } from '../store/list-entries.js';
import { HISTORY_NAMESPACE, LINKS_NAMESPACE, REPORTS_NAMESPACE } from '../store/namespaces.js';
import type { Stores } from '../store/open-stores.js';
import { isServerLinkKey, isUserLinkKey } from './link-keys.js';

export type CountLine = [name: string, value: number];

/** The figures `links count` prints, in its order. */
export async function countFigures(stores: Stores): Promise<CountLine[]> {
	return [
		['links', await countEntries(stores, LINKS_NAMESPACE, isUserLinkKey)],
		['server links', await countEntries(stores, LINKS_NAMESPACE, isServerLinkKey)],
		['history accounts', await countEntries(stores, HISTORY_NAMESPACE)],
		['reports', await countEntries(stores, REPORTS_NAMESPACE)],
	];
}
