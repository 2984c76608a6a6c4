/**
 * Import rules checked by `npm run lint`. The core is a stack of layers, each importing only layers
 * below it, so no two folders can import each other; the front ends sit on top of the core and never
 * the reverse. docs/architecture.md draws the same stack.
 */

const CORE_RUNTIME_FILES = '(actor|periodic-runner|claims|record-store)\\.ts$';
const CORE_RUNTIME = `^src/core/${CORE_RUNTIME_FILES}`;

/** Lowest first. A layer may import itself and the layers before it, never one after it. */
const CORE_LAYERS = [
	['base', '^src/[^/]+\\.ts$|^src/(i18n|metrics)/'],
	['store', '^src/store/'],
	// What every feature runs on and that needs nothing of the features: the actor, the periodic runner, claims, the
	// record store.
	['core-runtime', CORE_RUNTIME],
	['stats-api', '^src/stats-api/'],
	['links', '^src/links/'],
	['history', '^src/history/'],
	['render', '^src/render/'],
	['settings', '^src/settings/'],
	// CoreContext, the actor and what every feature's actions share.
	['core', `^src/core/(?!${CORE_RUNTIME_FILES})`],
	['stats', '^src/stats/'],
	// Goals sit above stats: showStats receives the goals it shows, it does not read them.
	['goals', '^src/goals/'],
	// Notes sit above stats as goals do: a chart receives the notes it draws; reports, boards and digests read them.
	['notes', '^src/notes/'],
	// Outgoing webhooks: the jobs hand them what they posted; they know no job.
	['webhooks', '^src/webhooks/'],
	['jobs', '^src/(reports|watch|boards|digests)/'],
	// What the bot holds: show, export, forget, purge, backup and restore, over the registry of record kinds.
	['privacy', '^src/privacy/'],
];

/** The front ends and the start-up code that wires them, above the whole core; same rule. */
const FRONT_LAYERS = [
	['discord', '^src/discord/'],
	['commands', '^commands/'],
	['web', '^src/web/'],
	['app', '^src/app/'],
];

const LAYERS = [...CORE_LAYERS, ...FRONT_LAYERS];

const layerRules = LAYERS.slice(0, -1).map(([name, path], index) => ({
	name: `layer-${name}-imports-only-below`,
	severity: 'error',
	comment: `${name} may import only the layers below it; a lower layer receives what it needs as a function or a value.`,
	from: { path },
	to: {
		path: LAYERS.slice(index + 1)
			.map(([, above]) => `(${above})`)
			.join('|'),
	},
}));

// Two folders of one layer (reports and watch, i18n and metrics) may not import each other either. Boards and
// digests are built on the watch and report helpers (pauses, schedules), never the reverse, and never on each other.
const siblingRules = [
	['^src/reports/', '^src/(watch|boards|digests)/'],
	['^src/watch/', '^src/(reports|boards|digests)/'],
	['^src/boards/', '^src/(reports|digests)/'],
	['^src/digests/', '^src/boards/'],
	['^src/i18n/', '^src/metrics/'],
	['^src/metrics/', '^src/i18n/'],
].map(([from, to]) => ({
	name: 'no-sibling-imports',
	severity: 'error',
	comment: 'Folders of one layer are independent of each other.',
	from: { path: from },
	to: { path: to },
}));

module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment: 'An import cycle makes start-up order matter and hides which module owns what.',
			from: {},
			to: { circular: true },
		},
		{
			name: 'core-knows-no-front-end',
			severity: 'error',
			comment: 'The core takes plain values and returns plain values; Discord and the web are front ends over it.',
			from: { path: CORE_LAYERS.map(([, path]) => `(${path})`).join('|') },
			to: { path: '^(src/discord|src/web|src/app|commands)/' },
		},
		...layerRules,
		...siblingRules,
		{
			name: 'stats-service-stands-alone',
			severity: 'error',
			comment: 'The conforming stats service is its own program: it shares only the base files with the bot.',
			from: { path: '^src/service/' },
			to: { path: '^src/(?!service/)[^/]+/' },
		},
		{
			name: 'bot-does-not-import-stats-service',
			severity: 'error',
			from: { path: '^(src/(?!service/)|commands/)' },
			to: { path: '^src/service/' },
		},
		{
			name: 'bot-opens-sqlite-through-one-library',
			severity: 'error',
			comment:
				'@keyv/sqlite runs on sqlite3. A second SQLite library in the bot process does not see its locks on the same file and corrupts it; better-sqlite3 is for the stats service alone.',
			from: { path: '^(src/(?!service/)|commands/)' },
			to: { path: '(^|/)better-sqlite3(/|$)' },
		},
		{
			name: 'bot-does-not-build-command-definitions',
			severity: 'error',
			comment:
				'Building the definitions costs 24 ms of start-up; only registration and the doctor need them. Handlers name their command instead.',
			from: { path: '^(src/(?!app/(register-cli\\.ts|doctor/))|commands/(?!definitions/))' },
			to: { path: '^commands/definitions/' },
		},
		{
			name: 'product-does-not-import-tests',
			severity: 'error',
			from: { path: '^(src|commands|sandbox)/' },
			to: { path: '^test/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsConfig: { fileName: 'tsconfig.json' },
		tsPreCompilationDeps: true,
		exclude: { path: '^sandbox/discord-api-spec/' },
	},
};
