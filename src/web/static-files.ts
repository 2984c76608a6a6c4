import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../project-files.js';

export interface StaticFile {
	body: Buffer;
	contentType: string;
}

const OWN_FOLDER = join(PROJECT_ROOT, 'src', 'web', 'static');

/**
 * The installed chart.js's browser build: its `exports` hide `dist/`, so the folder comes from the package's
 * main entry (`dist/chart.cjs`). The same package draws the PNGs, so page and picture agree.
 */
export function chartJsPath(): string {
	const main = createRequire(import.meta.url).resolve('chart.js');
	return join(dirname(main), 'chart.umd.min.js');
}

/** Every file under /static, read once at start-up (three files, about 210 KiB). */
export function loadStaticFiles(): Map<string, StaticFile> {
	const javascript = 'text/javascript; charset=utf-8';
	return new Map([
		['chart.umd.min.js', { body: readFileSync(chartJsPath()), contentType: javascript }],
		['dashboard.js', { body: readFileSync(join(OWN_FOLDER, 'dashboard.js')), contentType: javascript }],
		[
			'dashboard.css',
			{ body: readFileSync(join(OWN_FOLDER, 'dashboard.css')), contentType: 'text/css; charset=utf-8' },
		],
	]);
}
