import { clockOf } from '../core/actor.js';
import type { DigestContext } from './digest-actions.js';
import { digestStoreOf } from './digest-store.js';

/** How long a process trusts what it last read of a member's digest locale before it reads the store again. */
export const LOCALE_TRUSTED_FOR_MS = 10 * 60_000;
/** Members remembered per process; the oldest sighting is forgotten first. */
export const LOCALE_SIGHTINGS_KEPT = 10_000;

export interface DigestLocaleTracker {
	/**
	 * The member used the bot in `locale`: their digest, if they have one, is written in it from now on. A member
	 * seen in the same locale again within LOCALE_TRUSTED_FOR_MS costs nothing; otherwise one store read, and a
	 * write only when the locale changed.
	 */
	seen(userId: string, locale: string): Promise<void>;
}

/** What the tracker reads and writes: the digest store, and the clock. */
export type DigestLocaleContext = Pick<DigestContext, 'stores' | 'coordinator' | 'config' | 'now'>;

/**
 * Keeps each digest in the member's last seen Discord locale, as DESIGN asks, whatever command they use (not only
 * `/digest`). The time limit bounds how stale a process can be after another process wrote a newer locale.
 */
export function createDigestLocaleTracker(
	ctx: DigestLocaleContext,
	options: { trustedForMs?: number; kept?: number } = {},
): DigestLocaleTracker {
	const trustedForMs = options.trustedForMs ?? LOCALE_TRUSTED_FOR_MS;
	const kept = options.kept ?? LOCALE_SIGHTINGS_KEPT;
	const now = clockOf(ctx);
	// Insertion order is recency: a sighting is deleted and set again, so the first key is the oldest.
	const sightings = new Map<string, { locale: string; at: number }>();

	const remember = (userId: string, locale: string, at: number): void => {
		sightings.delete(userId);
		sightings.set(userId, { locale, at });
		if (sightings.size > kept) sightings.delete(sightings.keys().next().value ?? userId);
	};

	return {
		async seen(userId, locale) {
			const at = now();
			const known = sightings.get(userId);
			if (known && known.locale === locale && at - known.at < trustedForMs) return;
			const digests = digestStoreOf(ctx);
			const stored = await digests.get(userId);
			if (stored !== null && stored.locale !== locale) {
				await digests.update(userId, (current) =>
					current === null || current.locale === locale ? undefined : { ...current, locale },
				);
			}
			remember(userId, locale, at);
		},
	};
}
