export type LinksCommand = { name: 'count' } | { name: 'check' } | { name: 'reseal' } | { name: 'migrate'; to: string };

export const LINKS_USAGE = 'usage: npm run links -- reseal | migrate --to <STORE_URL> | count | check';

export class UsageError extends Error {
	override name = 'UsageError';
}

/** The subcommand and its options; throws UsageError with one line a person can act on. */
export function parseLinksArgs(args: string[]): LinksCommand {
	const [name, ...rest] = args;
	switch (name) {
		case 'count':
		case 'check':
		case 'reseal':
			if (rest.length > 0) throw new UsageError(`${name} takes no arguments (${LINKS_USAGE})`);
			return { name };
		case 'migrate': {
			const to = rest[0] === '--to' && rest.length === 2 ? rest[1] : /^--to=(.+)$/.exec(rest.join(' '))?.[1];
			if (!to) throw new UsageError(`migrate needs --to <STORE_URL> (${LINKS_USAGE})`);
			return { name, to };
		}
		case undefined:
			throw new UsageError(LINKS_USAGE);
		default:
			throw new UsageError(`unknown subcommand "${name}" (${LINKS_USAGE})`);
	}
}
