/** Import rules checked by `npm run lint`: the module graph stays a tree of layers, never a loop. */
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
			name: 'src-stays-below-commands',
			severity: 'error',
			comment: 'Services in src/ take plain data; only the bot transports may reach the command list.',
			from: { path: '^src/(?!bot/)' },
			to: { path: '^commands/' },
		},
		{
			name: 'commands-do-not-import-transports',
			severity: 'error',
			comment: 'Handlers see the transport-neutral interface only; src/bot imports commands, never the reverse.',
			from: { path: '^(commands|src/(?!bot/))' },
			to: { path: '^src/bot/' },
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
