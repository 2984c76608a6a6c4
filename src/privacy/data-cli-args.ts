export type DataCommand =
	| { name: 'show' | 'forget'; member: string }
	| { name: 'export'; member: string; out: string | null }
	| { name: 'purge'; server: string }
	| { name: 'backup'; file: string }
	| { name: 'restore'; file: string; replace: boolean };

export const DATA_USAGE =
	'usage: npm run data -- show|export|forget --member ID | export --member ID [--out FILE] | purge --server ID | backup FILE | restore FILE [--replace]';

export class DataUsageError extends Error {
	override name = 'DataUsageError';
}

const SNOWFLAKE = /^\d{1,20}$/;

/** `--name value` pairs and flags of `args`; throws on anything else. */
function optionsOf(args: string[], valued: readonly string[], flags: readonly string[]): Map<string, string> {
	const options = new Map<string, string>();
	for (let index = 0; index < args.length; index += 1) {
		const arg = args[index]!;
		const name = arg.replace(/^--/, '');
		if (!arg.startsWith('--') || options.has(name)) throw new DataUsageError(`unexpected "${arg}" (${DATA_USAGE})`);
		if (flags.includes(name)) {
			options.set(name, '');
		} else if (valued.includes(name) && args[index + 1] !== undefined) {
			options.set(name, args[index + 1]!);
			index += 1;
		} else {
			throw new DataUsageError(`unexpected "${arg}" (${DATA_USAGE})`);
		}
	}
	return options;
}

function idOption(options: Map<string, string>, name: 'member' | 'server'): string {
	const id = options.get(name);
	if (id === undefined || !SNOWFLAKE.test(id)) throw new DataUsageError(`--${name} needs a Discord id (${DATA_USAGE})`);
	return id;
}

/** The subcommand and its options; throws DataUsageError with one line a person can act on. */
export function parseDataArgs(args: string[]): DataCommand {
	const [name, ...rest] = args;
	switch (name) {
		case 'show':
		case 'forget':
			return { name, member: idOption(optionsOf(rest, ['member'], []), 'member') };
		case 'export': {
			const options = optionsOf(rest, ['member', 'out'], []);
			return { name, member: idOption(options, 'member'), out: options.get('out') ?? null };
		}
		case 'purge':
			return { name, server: idOption(optionsOf(rest, ['server'], []), 'server') };
		case 'backup':
		case 'restore': {
			const [file, ...more] = rest;
			if (file === undefined || file.startsWith('--')) throw new DataUsageError(`${name} needs a FILE (${DATA_USAGE})`);
			const options = optionsOf(more, [], name === 'restore' ? ['replace'] : []);
			return name === 'backup' ? { name, file } : { name, file, replace: options.has('replace') };
		}
		case undefined:
			throw new DataUsageError(DATA_USAGE);
		default:
			throw new DataUsageError(`unknown subcommand "${name}" (${DATA_USAGE})`);
	}
}
