import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { PROJECT_ROOT } from '../project-files.js';

/** The files under /static that pages link to. */
export type StaticName = 'chart.umd.min.js' | 'chartjs-plugin-annotation.min.js' | 'dashboard.js' | 'dashboard.css';

export interface StaticSource {
	name: string;
	body: Buffer;
}

/** What GET /static/<file> answers: the bytes in the chosen encoding and every header that goes with them. */
export interface StaticAnswer {
	body: Uint8Array<ArrayBuffer>;
	headers: Record<string, string>;
}

export interface StaticFiles {
	/** The content-hashed path a page links to, e.g. `/static/dashboard.3f9a0c12d4e5.css`. */
	url(name: string): string;
	/**
	 * The answer for `/static/<file>`, null for a name or hash it does not have (an old page's hash included).
	 * `file` is the path's last segment; `acceptEncoding` the request's header.
	 */
	answer(file: string, acceptEncoding: string | undefined): Promise<StaticAnswer | null>;
	/** Every hashed file name with its plain bytes, for copying beside saved pages. */
	published(): { file: string; body: Buffer }[];
}

const OWN_FOLDER = join(PROJECT_ROOT, 'src', 'web', 'static');
const CONTENT_TYPES: Record<string, string> = {
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
};
/** The hashed name changes whenever the bytes do, so a browser may keep what it got under it for good. */
const FOREVER = 'public, max-age=31536000, immutable';
/**
 * A plain name stays served for tools that want a fixed address (the bundle test, the bench); pages never use
 * it, and a browser asks again each time, so it cannot keep an old file after a deploy.
 */
const ASK_AGAIN = 'no-cache';
const HASH_LENGTH = 12;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The installed chart.js's browser build: its `exports` hide `dist/`, so the folder comes from the package's
 * main entry (`dist/chart.cjs`). The same package draws the PNGs, so page and picture agree.
 */
export function chartJsPath(): string {
	const main = createRequire(import.meta.url).resolve('chart.js');
	return join(dirname(main), 'chart.umd.min.js');
}

/**
 * The installed chartjs-plugin-annotation's browser build (notes on charts). Loaded after chart.js, it registers itself
 * on the page's one Chart, as the local renderer registers the same package on its own.
 */
export function annotationPluginPath(): string {
	return join(
		dirname(createRequire(import.meta.url).resolve('chartjs-plugin-annotation')),
		'chartjs-plugin-annotation.min.js',
	);
}

let loaded: StaticFiles | null = null;

/** The process's static files: read, hashed and compressed once, on first use by a page or the route. */
export function staticFiles(): StaticFiles {
	loaded ??= buildStaticFiles([
		{ name: 'chart.umd.min.js', body: readFileSync(chartJsPath()) },
		{ name: 'chartjs-plugin-annotation.min.js', body: readFileSync(annotationPluginPath()) },
		{ name: 'dashboard.js', body: readFileSync(join(OWN_FOLDER, 'dashboard.js')) },
		{ name: 'dashboard.css', body: readFileSync(join(OWN_FOLDER, 'dashboard.css')) },
	]);
	return loaded;
}

/** The path a page links to for one of the dashboard's files. */
export function staticUrl(name: StaticName): string {
	return staticFiles().url(name);
}

/** The answer for GET /static/<file>; null means 404. */
export function serveStatic(file: string, acceptEncoding: string | undefined): Promise<StaticAnswer | null> {
	return staticFiles().answer(file, acceptEncoding);
}

interface Encoded {
	br: Uint8Array<ArrayBuffer> | null;
	gzip: Uint8Array<ArrayBuffer> | null;
}

interface Asset {
	hashedFile: string;
	contentType: string;
	plain: Buffer;
	identity: Uint8Array<ArrayBuffer>;
	/**
	 * Brotli at its best quality takes about 0.4 s for chart.js: it runs on libuv's threads from load on, so
	 * neither start-up nor the first page waits for it, only the first request for the file if it comes sooner.
	 */
	encoded: Promise<Encoded>;
}

/** Static files from the given bytes: each hashed by content and compressed once. */
export function buildStaticFiles(sources: StaticSource[]): StaticFiles {
	const byName = new Map<string, Asset>();
	const byFile = new Map<string, { asset: Asset; cacheControl: string }>();
	for (const source of sources) {
		const asset = prepare(source);
		byName.set(source.name, asset);
		byFile.set(asset.hashedFile, { asset, cacheControl: FOREVER });
		byFile.set(source.name, { asset, cacheControl: ASK_AGAIN });
	}
	return {
		url(name) {
			const asset = byName.get(name);
			if (!asset) throw new Error(`no static file ${name}`);
			return `/static/${asset.hashedFile}`;
		},
		async answer(file, acceptEncoding) {
			const found = byFile.get(file);
			if (!found) return null;
			const { asset, cacheControl } = found;
			const headers: Record<string, string> = {
				'Content-Type': asset.contentType,
				'Cache-Control': cacheControl,
				Vary: 'Accept-Encoding',
			};
			const encoded = await asset.encoded;
			for (const coding of acceptedCodings(acceptEncoding)) {
				const body = encoded[coding];
				if (body) return { body, headers: { ...headers, 'Content-Encoding': coding } };
			}
			return { body: asset.identity, headers };
		},
		published: () => [...byName.values()].map((asset) => ({ file: asset.hashedFile, body: asset.plain })),
	};
}

function prepare(source: StaticSource): Asset {
	const extension = extname(source.name);
	const contentType = CONTENT_TYPES[extension];
	if (!contentType) throw new Error(`no content type for ${source.name}`);
	const hash = createHash('sha256').update(source.body).digest('hex').slice(0, HASH_LENGTH);
	const encoded = encode(source.body);
	// A failure shows on the request that awaits it; until then it is not an unhandled rejection.
	encoded.catch(() => undefined);
	return {
		hashedFile: `${source.name.slice(0, -extension.length)}.${hash}${extension}`,
		contentType,
		plain: source.body,
		identity: new Uint8Array(source.body),
		encoded,
	};
}

async function encode(body: Buffer): Promise<Encoded> {
	const [br, gz] = await Promise.all([
		brotli(body, {
			params: {
				[constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
				[constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
				[constants.BROTLI_PARAM_SIZE_HINT]: body.length,
			},
		}),
		gzipped(body, { level: constants.Z_BEST_COMPRESSION }),
	]);
	// A file too small to shrink goes out as it is.
	const smaller = (packed: Buffer) => (packed.length < body.length ? new Uint8Array(packed) : null);
	return { br: smaller(br), gzip: smaller(gz) };
}

/**
 * The codings we have that the header accepts, best first: the client's order of preference (q), brotli before
 * gzip on a tie. `*` stands for any coding the header does not name; `q=0` refuses one.
 */
export function acceptedCodings(header: string | undefined): ('br' | 'gzip')[] {
	if (!header) return [];
	const weights = new Map<string, number>();
	for (const part of header.split(',')) {
		const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
		if (coding === '') continue;
		const q = params.find((param) => param.startsWith('q='));
		const weight = q === undefined ? 1 : Number(q.slice(2));
		weights.set(coding === 'x-gzip' ? 'gzip' : coding, Number.isFinite(weight) ? weight : 0);
	}
	const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
	return (['br', 'gzip'] as const).filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}
