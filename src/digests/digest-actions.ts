import { clockOf, type Actor } from '../core/actor.js';
import type { Config } from '../config.js';
import { UserFacingError } from '../errors.js';
import { isWeekday, type Weekday } from '../reports/report-record.js';
import { isKnownTimeZone } from '../reports/schedule.js';
import type { CoreContext } from '../core/core-context.js';
import { DIGEST_SCHEMA_VERSION, type DigestRecord } from './digest-record.js';
import { spreadOffset } from '../core/periodic-runner.js';
import { DIGEST_CHECK_MS, DIGEST_SPREAD_MS } from './digest-job.js';
import { nextDigestAt } from './digest-schedule.js';
import { digestStoreOf } from './digest-store.js';

/** What the digest actions use of the core: the member's link, and the store with its claims. */
export type DigestContext = Pick<CoreContext, 'links' | 'stores' | 'coordinator' | 'now'> & {
	config: Pick<Config, 'storeUrl'>;
};

export const DEFAULT_DIGEST_WEEKDAY: Weekday = 'mon';
export const DEFAULT_DIGEST_HOUR = 9;
export const DEFAULT_DIGEST_TIMEZONE = 'UTC';

export interface DigestInput {
	enabled: boolean;
	/** `mon` … `sun`; absent or null: Monday. Ignored when turning it off. */
	weekday?: string | null;
	/** 0–23 in `timezone`; absent or null: 9. */
	hour?: number | string | null;
	/** IANA name; absent or null: UTC. */
	timezone?: string | null;
	/** The member's Discord locale now: the digest is written in the last one seen. */
	locale: string;
}

export interface DigestStatus {
	/** Null when the member never turned a digest on. */
	record: DigestRecord | null;
	/** Epoch ms the next digest falls due (the top of its hour); null while off. See digestArrival. */
	nextAt: number | null;
}

/**
 * When a digest due at `dueAt` reaches the member, epoch ms: the digest job holds each member's back by a fixed part
 * of the hour (a hash of their id) and looks every DIGEST_CHECK_MS, so from that moment to one check later.
 */
export function digestArrival(record: Pick<DigestRecord, 'userId'>, dueAt: number): { from: number; to: number } {
	const from = dueAt + spreadOffset(record.userId, DIGEST_SPREAD_MS);
	return { from, to: from + DIGEST_CHECK_MS };
}

/**
 * Turns the member's weekly digest on (with its weekday, hour and zone) or off. It is the member's own account, so
 * no server key and no Manage Server: only their own link, needed to turn it on. Turning on again clears a stop
 * Discord caused (50007) and counts due times from now, so it never sends one at once for an hour already past.
 */
export async function setDigest(ctx: DigestContext, actor: Actor, input: DigestInput): Promise<DigestStatus> {
	const now = clockOf(ctx)();
	const digests = digestStoreOf(ctx);
	if (!input.enabled) {
		const record = await digests.update(actor.userId, (current) =>
			current === null ? undefined : { ...current, enabled: false, locale: input.locale },
		);
		return { record, nextAt: null };
	}
	const schedule = readSchedule(input);
	await requireOwnLink(ctx, actor);
	const record = await digests.update(actor.userId, (current) => ({
		v: DIGEST_SCHEMA_VERSION,
		userId: actor.userId,
		enabled: true,
		...schedule,
		locale: input.locale,
		enabledAt: now,
		lastSentWeek: current?.lastSentWeek ?? null,
		lastSentAt: current?.lastSentAt ?? null,
		stopped: null,
	}));
	return { record, nextAt: record && nextDigestAt(record, now) };
}

/** The member's digest as it stands, and when the next one goes out; remembers the member's locale. */
export async function showDigest(
	ctx: DigestContext,
	actor: Actor,
	input: Pick<DigestInput, 'locale'>,
): Promise<DigestStatus> {
	const now = clockOf(ctx)();
	const record = await digestStoreOf(ctx).update(actor.userId, (current) =>
		current === null || current.locale === input.locale ? undefined : { ...current, locale: input.locale },
	);
	if (record === null) await requireOwnLink(ctx, actor);
	return { record, nextAt: record?.enabled ? nextDigestAt(record, now) : null };
}

async function requireOwnLink(ctx: DigestContext, actor: Actor): Promise<void> {
	const link = await ctx.links.getUserLink(actor.userId);
	if (!link) throw new UserFacingError('digest.needsLink');
	if (!link.readable) throw new UserFacingError('errors.relinkNeeded');
}

function readSchedule(input: DigestInput): Pick<DigestRecord, 'weekday' | 'hour' | 'timezone'> {
	const weekday = input.weekday ?? DEFAULT_DIGEST_WEEKDAY;
	if (!isWeekday(weekday)) throw new UserFacingError('digest.invalidWeekday');
	const hour =
		input.hour === null || input.hour === undefined || input.hour === '' ? DEFAULT_DIGEST_HOUR : Number(input.hour);
	if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new UserFacingError('digest.hourRange');
	const timezone = (input.timezone ?? DEFAULT_DIGEST_TIMEZONE).trim() || DEFAULT_DIGEST_TIMEZONE;
	if (!isKnownTimeZone(timezone)) throw new UserFacingError('report.invalidTimezone', { timezone });
	return { weekday, hour, timezone };
}
