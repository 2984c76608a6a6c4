import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['node_modules/**', 'dist/**', 'data/**', 'demo-output/**', '.dependency-cruiser.cjs'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			// discord.js 14.17+ deprecates these options; flags and withResponse replace them (PITFALLS 3).
			'no-restricted-syntax': [
				'error',
				{ selector: "Property[key.name='ephemeral']", message: 'Use flags: MessageFlags.Ephemeral.' },
				{ selector: "Property[key.name='fetchReply']", message: 'Use withResponse: true.' },
				{ selector: "CallExpression[callee.name='setGlobalDispatcher']", message: 'Pass a dispatcher explicitly.' },
			],
			// Their ES module builds are second copies of what discord.js already loaded (src/discord/core-api.ts).
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					paths: [
						{ name: '@discordjs/rest', message: "Import from 'discord.js'.", allowTypeImports: true },
						{
							name: '@discordjs/core/http-only',
							message: "Import API from 'src/discord/core-api.ts'.",
							allowTypeImports: true,
						},
					],
				},
			],
		},
	},
);
