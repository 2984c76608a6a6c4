/* global fetch, AbortSignal -- Node 20 has both; the lint config names only the globals the .ts files need */
// The image's HEALTHCHECK: the slim image has no curl, so node asks /healthz itself. Exit 0 when it answers 200,
// 1 otherwise (Docker counts any other code as a failure too), with the answer's first line for `docker inspect`.
//   node scripts/container-healthcheck.mjs                          # the bot: /healthz on METRICS_PORT
//   node scripts/container-healthcheck.mjs http://127.0.0.1:8080/healthz   # the dashboard's own /healthz
const TIMEOUT_MS = 4000;

function defaultUrl() {
	const port = process.env.METRICS_PORT?.trim();
	if (!port) return null;
	// The check runs inside the container: an address listening everywhere is reached on loopback.
	const host = process.env.METRICS_HOST?.trim() || '127.0.0.1';
	const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
	return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}/healthz`;
}

const url = process.argv[2] ?? defaultUrl();
if (!url) {
	console.error('healthcheck: METRICS_PORT is not set and no URL was given');
	process.exit(1);
}
try {
	const answer = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
	const body = await answer.text();
	console.log(`healthcheck: ${answer.status} ${body.split('\n', 1)[0].slice(0, 300)}`);
	process.exit(answer.status === 200 ? 0 : 1);
} catch (error) {
	console.error(`healthcheck: no answer from ${url} (${error instanceof Error ? error.name : 'error'})`);
	process.exit(1);
}
