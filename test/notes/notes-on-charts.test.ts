// Notes drawn on charts, on both renderers: the chart config carries the notes of its days only (the input the stats
// core builds, the QuickChart request body, the local renderer's config), the text cut to 24 characters, and the
// PNG differs with and without a note, on the main thread and in the worker pool the bot draws with.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { createCanvas } from '@napi-rs/canvas';
import { Chart } from 'chart.js';
import { foldSnapshot, type HistoryRecord } from '../../src/history/record.js';
import { addDays } from '../../src/history/utc-days.js';
import { buildChartConfig, CHART_NOTE_LENGTH, type ChartInput, type ChartNote } from '../../src/render/chart.js';
import { createChartRenderer } from '../../src/render/create-chart-renderer.js';
import { CHART_SIZE, renderChartSafely } from '../../src/render/draw-chart.js';
import { createLocalRenderer, setUpChartJs } from '../../src/render/local-renderer.js';
import { isPng } from '../../src/render/png.js';
import type { StatsSnapshot } from '../../src/stats-api/snapshot.js';
import { chartInputOf, type ChartView } from '../../src/stats/chart-view.js';

const TODAY = '2026-11-23';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);
const silent = { warn: () => {} };

function snapshotOn(date: string): StatsSnapshot {
	return {
		sends: {
			today: 10,
			weekly: 70,
			monthly: 300,
			allTime: 5000,
			failedAllTime: 40,
			dailyBreakdown: Array.from({ length: 30 }, (_, index) => ({
				date: addDays(date, index - 29),
				sends: 10 + ((index * 37) % 50),
			})),
		},
		joins: { today: 1, weekly: 7, monthly: 30, allTime: 101 },
		meta: { generatedAt: `${date}T12:00:00.000Z`, user: 'Acme' },
	};
}

const history: HistoryRecord = foldSnapshot(null, snapshotOn(TODAY), NOON);
const view = (overrides: Partial<ChartView> = {}): ChartView => ({
	metric: 'sends',
	days: 7,
	scope: 'server',
	locale: 'en-US',
	accountName: 'Acme',
	today: TODAY,
	...overrides,
});

/** Two notes on the 7 days shown, one before them, one on a day the history has not reached. */
const NOTES: ChartNote[] = [
	{ date: '2026-10-01', text: 'long before the chart' },
	{ date: '2026-11-18', text: 'campaign A started, with a longer text than a chart shows' },
	{ date: '2026-11-21', text: 'mail out' },
	{ date: '2026-11-24', text: 'tomorrow' },
];

interface LineAnnotation {
	type: string;
	scaleID: string;
	value: number;
	label: { display: boolean; content: string };
}

function annotationsOf(config: unknown): LineAnnotation[] {
	const plugins = (config as { options?: { plugins?: { annotation?: { annotations?: object } } } }).options?.plugins;
	return Object.values(plugins?.annotation?.annotations ?? {}) as LineAnnotation[];
}

/** quickchart-js writes the config as a JavaScript literal (javascript-stringify): read it as QuickChart does. */
function sentChart(body: Record<string, unknown>): { options: { plugins: Record<string, unknown> } } {
	assert.equal(typeof body.chart, 'string');
	return JSON.parse(JSON.stringify(runInNewContext(`(${body.chart as string})`))) as {
		options: { plugins: Record<string, unknown> };
	};
}

function inputWith(notes: readonly ChartNote[] | undefined): ChartInput {
	const { input } = chartInputOf(history, view({ notes }));
	assert.ok(input);
	return input;
}

describe('the chart input and config', () => {
	it('carry the notes of the days shown only, at their day, the text cut to 24 characters', () => {
		const input = inputWith(NOTES);
		assert.deepEqual(
			input.notes?.map((note) => note.date),
			['2026-11-18', '2026-11-21'],
			'the days of the chart only',
		);
		const annotations = annotationsOf(buildChartConfig(input).config);
		const dates = input.points.map((point) => point.date);
		assert.deepEqual(
			annotations.map((line) => [line.type, line.scaleID, dates[line.value]]),
			[
				['line', 'x', '2026-11-18'],
				['line', 'x', '2026-11-21'],
			],
		);
		assert.equal(annotations[0]!.label.content, 'campaign A started, wit…');
		assert.equal([...annotations[0]!.label.content].length, CHART_NOTE_LENGTH);
		assert.equal(annotations[1]!.label.content, 'mail out');
		assert.ok(annotations.every((line) => line.label.display));
	});

	it('a chosen range (from/to) draws the notes of its days only', () => {
		const { input } = chartInputOf(history, view({ range: { from: '2026-11-15', to: '2026-11-19' }, notes: NOTES }));
		assert.deepEqual(
			input?.notes?.map((note) => note.date),
			['2026-11-18'],
		);
		const dates = input!.points.map((point) => point.date);
		assert.deepEqual(
			annotationsOf(buildChartConfig(input!).config).map((line) => dates[line.value]),
			['2026-11-18'],
		);
	});

	it('a chart without notes on its days has no annotation options at all (its config is what it was)', () => {
		const without = buildChartConfig(inputWith(undefined)).config;
		assert.equal(without.options?.plugins && 'annotation' in without.options.plugins, false);
		const outside = buildChartConfig(inputWith([NOTES[0]!, NOTES[3]!])).config;
		assert.deepEqual(outside, without, 'notes off the chart change nothing');
	});

	it('the same notes give the same input (the memo), other notes a new one', () => {
		assert.equal(inputWith(NOTES), inputWith(NOTES.map((note) => ({ ...note }))));
		assert.notEqual(inputWith(NOTES), inputWith(NOTES.slice(0, 2)));
	});
});

describe('QuickChart gets the same options.plugins.annotation', () => {
	let requests: Record<string, unknown>[] = [];
	const png = createCanvas(10, 10).encode('png');
	const quickchart = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
			void png.then((bytes) => res.writeHead(200, { 'content-type': 'image/png' }).end(bytes));
		});
	});
	let url = '';
	before(async () => {
		await new Promise<void>((resolve) => quickchart.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(quickchart.address() as AddressInfo).port}`;
	});
	after(() => new Promise<void>((resolve) => quickchart.close(() => resolve())));

	it('the request body carries the notes of the chart days only', async () => {
		const renderer = createChartRenderer('quickchart', { quickchartUrl: url });
		try {
			requests = [];
			const drawn = await renderChartSafely(renderer, inputWith(NOTES), { log: silent });
			assert.ok(drawn.png && isPng(drawn.png));
			assert.equal(requests.length, 1);
			const chart = sentChart(requests[0]!);
			const sent = annotationsOf(chart);
			assert.deepEqual(
				sent.map((line) => line.label.content),
				['campaign A started, wit…', 'mail out'],
			);
			assert.deepEqual(
				chart.options.plugins.annotation,
				buildChartConfig(inputWith(NOTES)).config.options?.plugins?.annotation,
			);
			await renderChartSafely(renderer, inputWith(undefined), { log: silent });
			assert.equal('annotation' in sentChart(requests[1]!).options.plugins, false);
		} finally {
			await renderer.close();
		}
	});
});

describe('the local renderer draws the notes', () => {
	const pool = createChartRenderer('local', { quickchartUrl: 'http://127.0.0.1:1', threads: 1 });
	after(() => pool.close());

	it('registers chartjs-plugin-annotation once, on the Chart that draws', () => {
		setUpChartJs();
		setUpChartJs();
		assert.equal(Chart.registry.plugins.get('annotation')?.id, 'annotation');
	});

	it('a PNG with a note differs from one without, in this thread and in the worker pool', async () => {
		const inThread = createLocalRenderer();
		const draw = async (renderer: typeof inThread, notes: readonly ChartNote[] | undefined) => {
			const built = buildChartConfig(inputWith(notes));
			const drawn = await renderer.render(built.config, CHART_SIZE, { background: built.background });
			assert.ok(drawn && isPng(drawn));
			return drawn;
		};
		const plain = await draw(inThread, undefined);
		const noted = await draw(inThread, [NOTES[2]!]);
		assert.ok(!plain.equals(noted), 'the note is drawn');
		assert.ok(plain.equals(await draw(inThread, [NOTES[0]!])), 'a note off the chart draws nothing');
		const pooledPlain = await draw(pool, undefined);
		const pooledNoted = await draw(pool, [NOTES[2]!]);
		assert.ok(!pooledPlain.equals(pooledNoted), 'the worker registered the plugin too');
		assert.ok(pooledNoted.equals(noted), 'the worker draws what this thread draws');
	});
});
