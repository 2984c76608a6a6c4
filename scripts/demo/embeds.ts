// The public page's embeds as another site shows them: the badge and the chart PNG in both themes, fetched from the
// running dashboard, and a page that puts them on a dark site's background (and the light chart on a light one).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publicToken, type PublicPageStores } from '../../src/settings/public-page.js';

const FILES = { badge: 'badge.svg', light: 'chart-light.png', dark: 'chart-dark.png' } as const;

async function fetchBody(url: string, type: string): Promise<Buffer> {
	const answer = await fetch(url);
	if (answer.status !== 200 || !answer.headers.get('content-type')?.startsWith(type)) {
		throw new Error(`${url} answered ${answer.status} ${answer.headers.get('content-type') ?? ''}`);
	}
	return Buffer.from(await answer.arrayBuffer());
}

/** A dark site (GitHub's dark background) with the badge and the dark chart, and a light one below. */
function embedsPage(): string {
	return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Embeds of the public page</title>
<style>
body { margin: 0; font-family: system-ui, sans-serif; }
section { padding: 24px; }
.dark { background: #0d1117; color: #e6edf3; }
.light { background: #ffffff; color: #1f2328; }
img.chart { display: block; max-width: 100%; height: auto; margin-top: 12px; }
</style></head>
<body>
<section class="dark"><h1>On a dark site</h1><img src="${FILES.badge}" alt="badge"><img class="chart" src="${FILES.dark}" alt="dark chart"></section>
<section class="light"><h1>On a light site</h1><img src="${FILES.badge}" alt="badge"><img class="chart" src="${FILES.light}" alt="light chart"></section>
</body>
</html>
`;
}

/**
 * Writes `embeds/` under `out`: what `/p/{token}/badge.svg` and `/p/{token}/chart.png` answer (light and dark) for
 * the server whose public page is on, and `embeds.html` showing them. Answers the summary line.
 */
export async function writeEmbeds(
	ctx: PublicPageStores,
	webUrl: string,
	guildId: string,
	out: string,
): Promise<string> {
	const token = await publicToken(ctx, guildId);
	if (token === null) throw new Error('the demo server has no public page to embed');
	const base = `${webUrl}/p/${token}`;
	const folder = join(out, 'embeds');
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, FILES.badge), await fetchBody(`${base}/badge.svg`, 'image/svg+xml'));
	writeFileSync(join(folder, FILES.light), await fetchBody(`${base}/chart.png?days=30&theme=light`, 'image/png'));
	writeFileSync(join(folder, FILES.dark), await fetchBody(`${base}/chart.png?days=30&theme=dark`, 'image/png'));
	writeFileSync(join(folder, 'embeds.html'), embedsPage());
	return `Embeds: ${folder}/ (badge.svg, chart-light.png, chart-dark.png; embeds.html shows them on a dark and a light site)`;
}
