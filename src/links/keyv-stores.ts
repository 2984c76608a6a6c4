// The store moved to src/store; these names stay importable from the links module.
export { openStores } from '../store/open-stores.js';
export type { OpenStoresOptions, Stores } from '../store/open-stores.js';
export { CACHE_NAMESPACE, LINKS_NAMESPACE } from '../store/namespaces.js';
