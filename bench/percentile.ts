/** Nearest-rank percentile of `values` (ms), rounded to 0.01. */
export function percentile(values: readonly number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return Math.round(sorted[rank]! * 100) / 100;
}
