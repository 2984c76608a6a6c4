import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { TRANSLATED_LOCALES } from '../../src/i18n/index.js';

interface JsonOption {
	name: string;
	type: number;
	description: string;
	description_localizations?: Record<string, string>;
	choices?: { name: string; name_localizations?: Record<string, string>; value: unknown }[];
	channel_types?: number[];
	options?: JsonOption[];
}

/** Every command, subcommand and option, as registration sends them. */
function everyDescribed(): {
	path: string;
	node: JsonOption | ReturnType<(typeof commandDefinitions)[number]['toJSON']>;
}[] {
	const found: { path: string; node: JsonOption }[] = [];
	const walk = (path: string, options: JsonOption[] | undefined) => {
		for (const option of options ?? []) {
			found.push({ path: `${path} ${option.name}`, node: option });
			walk(`${path} ${option.name}`, option.options);
		}
	};
	for (const definition of commandDefinitions) {
		const json = definition.toJSON() as unknown as JsonOption;
		found.push({ path: `/${json.name}`, node: json });
		walk(`/${json.name}`, json.options);
	}
	return found;
}

describe('command definitions as registered', () => {
	it('every command, subcommand and option has a description in all seven other languages', () => {
		for (const { path, node } of everyDescribed()) {
			const localized = (node as JsonOption).description_localizations ?? {};
			for (const locale of TRANSLATED_LOCALES) {
				assert.ok(localized[locale]?.trim(), `${path} lacks a ${locale} description`);
				assert.ok(localized[locale]!.length <= 100, `${path} ${locale} description is over 100 characters`);
			}
		}
	});

	it('every choice whose name has words is translated', () => {
		for (const { path, node } of everyDescribed()) {
			for (const choice of (node as JsonOption).choices ?? []) {
				if (!/[a-z]/i.test(choice.name)) continue;
				// Language names stay in their own language (the /settings language choices).
				if (path.endsWith(' language') && choice.value !== 'auto') continue;
				for (const locale of TRANSLATED_LOCALES) {
					assert.ok(choice.name_localizations?.[locale], `${path} choice ${choice.name} lacks ${locale}`);
				}
			}
		}
	});

	it('/statchannel add offers voice channels and categories only, as its description and refusal say', () => {
		const channel = everyDescribed().find(({ path }) => path === '/statchannel add channel')?.node as JsonOption;
		assert.deepEqual(channel.channel_types, [2, 4], 'voice, category; no stage (13)');
	});

	it('names stay the fixed English ones', () => {
		assert.deepEqual(
			commandDefinitions.map((definition) => definition.name).sort(),
			[...new Set(commandDefinitions.map((definition) => definition.name))].sort(),
		);
		for (const { path, node } of everyDescribed()) {
			assert.match((node as JsonOption).name, /^[a-z0-9-]{1,32}$/, path);
		}
	});
});

describe('the two command lists', () => {
	it('name the same commands in the same order: the handlers the bot routes to are the commands registered', async () => {
		// commands/index.ts loads handler code; registration must not, so the definitions keep a list of their own.
		const { commandModules } = await import('../../commands/index.js');
		assert.deepEqual(
			commandModules.map((module) => module.name),
			commandDefinitions.map((definition) => definition.name),
		);
	});
});
