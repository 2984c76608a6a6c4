import { DAY_MS, dayNumberOf } from './utc-time.js';
import { EVENT_KIND, type NormalizedEvent } from './events.js';
import type { StatsStore } from './service-store.js';

export interface DemoOptions {
	/** Default "demo". */
	name?: string;
	/** Days of history up to and including today; default 120. */
	days?: number;
	/** Same seed, same `now`: the same events. Default 20261121. */
	seed?: number;
	/** Default: the wall clock. No event is later than this. */
	now?: Date;
}

// Weekends are quiet for advertisers, mid-week is busy; index = getUTCDay() (0 = Sunday).
const WEEKDAY_FACTOR = [0.55, 1.05, 1.1, 1.1, 1.05, 0.9, 0.7] as const;

/** mulberry32: a small, fast, seedable PRNG; the demo must be reproducible, not secure. */
function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/** Builds the demo account's events: a growth trend, a weekly rhythm, 3-8 % failed sends, joins a fraction of sends. */
export function generateDemoEvents(options: { days: number; seed: number; now: Date }): NormalizedEvent[] {
	const random = seededRandom(options.seed);
	const nowMs = options.now.getTime();
	const today = dayNumberOf(nowMs);
	const events: NormalizedEvent[] = [];
	for (let age = options.days - 1; age >= 0; age -= 1) {
		const dayStart = (today - age) * DAY_MS;
		const progress = options.days > 1 ? 1 - age / (options.days - 1) : 1;
		const weekday = new Date(dayStart).getUTCDay();
		const expected = (60 + 140 * progress) * (WEEKDAY_FACTOR[weekday] ?? 1) * (0.85 + 0.3 * random());
		// Today is only partly over: scale it and keep every event in the past.
		const span = age === 0 ? Math.max(1, nowMs - dayStart) : DAY_MS;
		const sends = Math.round((expected * span) / DAY_MS);
		const failRate = 0.03 + 0.05 * random();
		const joinRate = 0.06 + 0.08 * random();
		let okSends = 0;
		for (let i = 0; i < sends; i += 1) {
			const ok = random() >= failRate;
			if (ok) okSends += 1;
			events.push({
				kind: ok ? EVENT_KIND.sendOk : EVENT_KIND.sendFailed,
				atMs: dayStart + Math.floor(random() * span),
			});
		}
		const joins = Math.round(okSends * joinRate);
		for (let i = 0; i < joins; i += 1) {
			events.push({ kind: EVENT_KIND.join, atMs: dayStart + Math.floor(random() * span) });
		}
	}
	return events.sort((a, b) => a.atMs - b.atMs);
}

/** Creates, or replaces with fresh history and a new key, the demo account; returns its key once. */
export function seedDemoAccount(
	store: StatsStore,
	options: DemoOptions = {},
): { name: string; apiKey: string; events: number } {
	const name = options.name ?? 'demo';
	const days = options.days ?? 120;
	if (!Number.isInteger(days) || days < 1 || days > 3660) throw new RangeError('days must be an integer 1-3660');
	const events = generateDemoEvents({ days, seed: options.seed ?? 20261121, now: options.now ?? new Date() });
	return store.db
		.transaction(() => {
			store.deleteAccount(name);
			const { apiKey } = store.createAccount(name);
			return { name, apiKey, events: store.importNormalizedEvents(name, events) };
		})
		.immediate();
}
