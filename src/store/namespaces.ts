/** Keyv namespaces, spelled here only. */
export const LINKS_NAMESPACE = 'links';
export const CACHE_NAMESPACE = 'stats-cache';
export const HISTORY_NAMESPACE = 'history';
export const REPORTS_NAMESPACE = 'reports';
export const SETTINGS_NAMESPACE = 'settings';
/** The dashboard's sessions, login states and public links; sessions and states expire on their own. */
export const WEB_NAMESPACE = 'web';
/** Stat channels and alerts (src/watch) with each one's state, boards, goals and digests. */
export const WATCH_NAMESPACE = 'watch';

/**
 * Namespaces of records that cannot be fetched again (`web` holds some too, beside its transient entries). Which
 * entries `links migrate` copies and `links count` counts is decided per kind, by src/core/record-kinds.ts.
 */
export const DATA_NAMESPACES = [
	LINKS_NAMESPACE,
	HISTORY_NAMESPACE,
	REPORTS_NAMESPACE,
	SETTINGS_NAMESPACE,
	WATCH_NAMESPACE,
] as const;

export type DataNamespaceName = (typeof DATA_NAMESPACES)[number];

export const ALL_NAMESPACES = [...DATA_NAMESPACES, CACHE_NAMESPACE, WEB_NAMESPACE] as const;
export type NamespaceName = (typeof ALL_NAMESPACES)[number];
