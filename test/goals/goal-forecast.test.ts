import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeGoalProgress, periodBounds, type DayFigure } from '../../src/goals/goal-forecast.js';
import { addDays } from '../../src/history/utc-days.js';

/** Known figures from `from` to `to` (both included), each from `valueOf(date, weekday)`. */
function series(from: string, to: string, valueOf: (date: string, weekday: number) => number | null): DayFigure[] {
	const days: DayFigure[] = [];
	for (let date = from; date <= to; date = addDays(date, 1)) {
		days.push({ date, value: valueOf(date, new Date(`${date}T00:00:00Z`).getUTCDay()) });
	}
	return days;
}
const at = (iso: string) => Date.parse(iso);
const close = (actual: number, expected: number) =>
	assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} ≠ ${expected}`);

test('a weekly pattern (weekends low) with no scatter: the band is the forecast', () => {
	const days = series('2026-10-01', '2026-11-17', (_, weekday) => (weekday === 0 || weekday === 6 ? 20 : 100));
	const month = computeGoalProgress({
		days,
		todaySoFar: 40,
		metric: 'sends',
		period: 'month',
		now: at('2026-11-18T12:00:00Z'),
	});
	// Nov 1–17: Sun 20, two full weeks (2 × 540), Mon+Tue 200 = 1,300; today 40.
	assert.equal(month.progress, 1340);
	// Today 100 − 40 = 60 more; Nov 19–30: Thu, Fri, Sat, Sun, a week, Sat, Sun, Mon = 200 + 40 + 500 + 40 + 100.
	assert.deepEqual(month.forecast, { expected: 2280, low: 2280, high: 2280 });
	assert.equal(month.start, '2026-11-01');
	assert.equal(month.end, '2026-11-30');
	const week = computeGoalProgress({
		days,
		todaySoFar: 40,
		metric: 'sends',
		period: 'week',
		now: at('2026-11-18T12:00:00Z'),
	});
	assert.equal(week.progress, 240);
	assert.deepEqual(week.forecast, { expected: 540, low: 540, high: 540 });
});

test('one spike: the band widens by 1.28 · s · √n with the sample standard deviation, its low end held at progress', () => {
	const days = series('2026-10-01', '2026-11-17', (date) => (date === '2026-11-10' ? 290 : 10));
	const figures = computeGoalProgress({
		days,
		todaySoFar: 0,
		metric: 'sends',
		period: 'month',
		now: at('2026-11-18T08:00:00Z'),
	});
	assert.equal(figures.progress, 16 * 10 + 290);
	// m(Tue) = (10 + 10 + 290 + 10) / 4 = 80, every other weekday 10. Today 10, Nov 19–30: 11 × 10 + 80.
	close(figures.forecast!.expected, 450 + 10 + 190);
	// Residuals: 210 once, −70 three times, 0 else: s² = (210² + 3 · 70²) / 27 = 58,800 / 27, s = 140 / 3.
	const half = 1.28 * (140 / 3) * Math.sqrt(13);
	close(figures.forecast!.high, 650 + half);
	assert.equal(figures.forecast!.low, 450); // 650 − 215.4 would be below the 450 already done
});

test('a flat series on the last day of the month and of the week: what is left is today', () => {
	const days = series('2026-10-01', '2026-11-29', () => 50);
	const lastOfMonth = computeGoalProgress({
		days,
		todaySoFar: 70,
		metric: 'sends',
		period: 'month',
		now: at('2026-11-30T10:00:00Z'),
	});
	assert.equal(lastOfMonth.progress, 29 * 50 + 70);
	// Today already passed its mean: nothing more is expected.
	assert.deepEqual(lastOfMonth.forecast, { expected: 1520, low: 1520, high: 1520 });
	const sunday = computeGoalProgress({
		days: series('2026-10-01', '2026-11-21', () => 50),
		todaySoFar: 20,
		metric: 'sends',
		period: 'week',
		now: at('2026-11-22T18:00:00Z'),
	});
	assert.equal(sunday.start, '2026-11-16');
	assert.equal(sunday.end, '2026-11-22');
	assert.deepEqual(sunday.forecast, { expected: 350, low: 350, high: 350 });
});

test('the first day of a month and of a week: progress is today so far, the rest is the means', () => {
	const days = series('2026-10-01', '2026-11-30', () => 50);
	const december = computeGoalProgress({
		days,
		todaySoFar: 0,
		metric: 'sends',
		period: 'month',
		now: at('2026-12-01T00:30:00Z'),
	});
	assert.equal(december.progress, 0);
	assert.deepEqual(december.forecast, { expected: 31 * 50, low: 31 * 50, high: 31 * 50 });
	const monday = computeGoalProgress({
		days: series('2026-10-01', '2026-11-29', () => 50),
		todaySoFar: 70,
		metric: 'sends',
		period: 'week',
		now: at('2026-11-30T10:00:00Z'),
	});
	assert.equal(monday.start, '2026-11-30');
	assert.equal(monday.progress, 70);
	assert.deepEqual(monday.forecast, { expected: 370, low: 370, high: 370 });
});

test('a goal already reached still shows its progress and forecast above it', () => {
	const days = series('2026-10-01', '2026-11-29', (_, weekday) => 40 + weekday * 5);
	const figures = computeGoalProgress({
		days,
		todaySoFar: 70,
		metric: 'sends',
		period: 'month',
		now: at('2026-11-30T10:00:00Z'),
	});
	assert.ok(figures.progress > 1000);
	assert.ok(figures.forecast!.low >= figures.progress);
});

test('joins with a gap: no forecast, and the day one becomes possible', () => {
	const days = series('2026-09-01', '2026-11-17', (date) => (date === '2026-11-10' ? null : 3));
	const figures = computeGoalProgress({
		days,
		todaySoFar: 1,
		metric: 'joins',
		period: 'month',
		now: at('2026-11-18T12:00:00Z'),
	});
	assert.equal(figures.forecast, null);
	// The 28 days ending the day before 2026-12-09 start on 2026-11-11, the first day after the gap.
	assert.equal(figures.forecastFrom, '2026-12-09');
	assert.equal(figures.progress, 16 * 3 + 1);
	const young = computeGoalProgress({
		days: series('2026-11-05', '2026-11-17', () => 3),
		todaySoFar: 0,
		metric: 'joins',
		period: 'week',
		now: at('2026-11-18T12:00:00Z'),
	});
	assert.equal(young.forecastFrom, '2026-12-03');
});

test('February has 28 or 29 days', () => {
	assert.deepEqual(periodBounds('month', '2027-02-15'), { start: '2027-02-01', end: '2027-02-28' });
	assert.deepEqual(periodBounds('month', '2028-02-10'), { start: '2028-02-01', end: '2028-02-29' });
	const days = series('2026-12-01', '2027-02-14', () => 10);
	const figures = computeGoalProgress({
		days,
		todaySoFar: 0,
		metric: 'sends',
		period: 'month',
		now: at('2027-02-15T09:00:00Z'),
	});
	assert.deepEqual(figures.forecast, { expected: 280, low: 280, high: 280 });
	const leap = computeGoalProgress({
		days: series('2027-12-01', '2028-02-09', () => 10),
		todaySoFar: 0,
		metric: 'sends',
		period: 'month',
		now: at('2028-02-10T09:00:00Z'),
	});
	assert.deepEqual(leap.forecast, { expected: 290, low: 290, high: 290 });
});

test('a week crossing a month boundary runs Monday to Sunday over both months', () => {
	const days = series('2026-11-01', '2026-12-29', () => 10);
	const figures = computeGoalProgress({
		days,
		todaySoFar: 4,
		metric: 'sends',
		period: 'week',
		now: at('2026-12-30T12:00:00Z'),
	});
	assert.equal(figures.start, '2026-12-28');
	assert.equal(figures.end, '2027-01-03');
	assert.equal(figures.progress, 24);
	assert.deepEqual(figures.forecast, { expected: 70, low: 70, high: 70 });
	assert.deepEqual(
		figures.remaining.map((day) => day.date),
		['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03'],
	);
});

/** A small deterministic generator (mulberry32): the same cases on every run, many of them. */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

test('properties: low ≤ forecast ≤ high, low ≥ progress, progress never falls as the days of a period pass', () => {
	const random = seeded(25);
	for (let run = 0; run < 300; run += 1) {
		const scale = Math.floor(random() * 5000);
		const spiky = random() < 0.3;
		const values = new Map<string, number>();
		const first = addDays('2026-01-01', Math.floor(random() * 300));
		for (let index = 0; index < 160; index += 1) {
			const spike = spiky && random() < 0.05 ? 20 : 1;
			values.set(addDays(first, index), Math.floor(random() * scale * spike));
		}
		const period = random() < 0.5 ? 'month' : 'week';
		const start = addDays(first, 60 + Math.floor(random() * 30));
		const { end } = periodBounds(period, start);
		let previous = -1;
		for (let today = periodBounds(period, start).start; today <= end; today = addDays(today, 1)) {
			const full = values.get(today) ?? 0;
			for (const part of [0, 0.5, 1]) {
				const figures = computeGoalProgress({
					days: [...values].filter(([date]) => date < today).map(([date, value]) => ({ date, value })),
					todaySoFar: Math.floor(full * part),
					metric: 'sends',
					period,
					now: Date.parse(`${today}T00:00:00Z`) + part * 86_399_000,
				});
				assert.ok(figures.progress >= previous, `progress fell on ${today}`);
				previous = figures.progress;
				const { forecast } = figures;
				assert.ok(forecast, 'every case has 28 known days');
				assert.ok(forecast.low <= forecast.expected && forecast.expected <= forecast.high);
				assert.ok(forecast.low >= figures.progress);
			}
		}
	}
});
