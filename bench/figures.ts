/** One measured figure of `npm run bench`, as written to bench/results.json. */
export interface BenchFigure {
	name: string;
	value: number;
	unit: string;
	/** The same-run comparison (e.g. the naive way measured beside the real one), or null. */
	baseline: number | null;
	/** The target, in words. */
	goal: string;
	/** Whether the goal was met; null for a figure without a pass/fail goal. */
	met: boolean | null;
}
