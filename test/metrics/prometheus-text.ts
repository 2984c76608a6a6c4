// A reader of the Prometheus text format (0.0.4), strict enough that a malformed line fails the test reading it.
export interface Sample {
	name: string;
	labels: Record<string, string>;
	value: number;
}

export interface Exposition {
	samples: Sample[];
	/** Metric family name → counter, gauge, histogram, … */
	types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

function parseLabels(text: string, line: string): Record<string, string> {
	const labels: Record<string, string> = {};
	LABEL.lastIndex = 0;
	let consumed = 0;
	for (let match = LABEL.exec(text); match; match = LABEL.exec(text)) {
		const [whole, name, raw] = match as unknown as [string, string, string];
		if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
		labels[name] = raw.replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char));
		consumed += whole.length;
	}
	if (consumed !== text.length) throw new Error(`unreadable labels in: ${line}`);
	return labels;
}

function parseValue(text: string, line: string): number {
	// Prometheus reads these case-insensitively (Go's ParseFloat), and prom-client writes NaN as `Nan`.
	const special = text.toLowerCase();
	if (special === '+inf') return Infinity;
	if (special === '-inf') return -Infinity;
	if (special === 'nan') return NaN;
	const value = Number(text);
	if (text === '' || Number.isNaN(value)) throw new Error(`unreadable value in: ${line}`);
	return value;
}

export function parsePrometheusText(text: string): Exposition {
	const samples: Sample[] = [];
	const types = new Map<string, string>();
	for (const line of text.split('\n')) {
		if (line === '' || line.startsWith('# HELP ')) continue;
		if (line.startsWith('# TYPE ')) {
			const [name, type] = line.slice('# TYPE '.length).split(' ');
			if (!name || !type) throw new Error(`unreadable TYPE line: ${line}`);
			types.set(name, type);
			continue;
		}
		const match = SAMPLE.exec(line);
		if (!match) throw new Error(`unreadable line: ${line}`);
		const [, name, labelText, valueText] = match as unknown as [string, string, string | undefined, string];
		samples.push({ name, labels: labelText ? parseLabels(labelText, line) : {}, value: parseValue(valueText, line) });
	}
	return { samples, types };
}

/** The samples named `name` whose labels include every pair of `labels`. */
export function findSamples(exposition: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
	return exposition.samples.filter(
		(sample) =>
			sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
	);
}

/** The value of the one sample matching; throws when none or several match. */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
	const found = findSamples(exposition, name, labels);
	if (found.length !== 1) {
		throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}, expected exactly 1`);
	}
	return found[0]!.value;
}

/** A key per series; two samples with the same key are a duplicate series. */
export function seriesKey(sample: Sample): string {
	const labels = Object.entries(sample.labels).sort(([a], [b]) => a.localeCompare(b));
	return `${sample.name}${JSON.stringify(labels)}`;
}
