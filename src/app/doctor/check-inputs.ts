// Which variables each check reads, so a bad one fails only the checks that depend on it (docs/doctor.md,
// "config"): a 16-byte LINK_SECRET must not hide discord-token, store or stats-api.

const DISCORD = ['DISCORD_TOKEN', 'DISCORD_API_URL'];
const STORE = ['STORE_URL'];

/**
 * The variables a check cannot run without, by check name; a check not listed reads none. The REST budget's
 * (STORE_URL, DISCORD_REST_PER_SECOND, BOT_PROCESSES) are no Discord check's input: a bad one is read at its
 * default (a bad STORE_URL: this process's own budget), and the checks still run.
 */
const CHECK_INPUTS: Readonly<Record<string, readonly string[]>> = {
	'discord-token': DISCORD,
	application: [...DISCORD, 'DISCORD_APPLICATION_ID'],
	commands: [...DISCORD, 'DISCORD_DEV_GUILD_ID'],
	gateway: [...DISCORD, 'SHARD_COUNT'],
	interactions: [...DISCORD, 'DISCORD_PUBLIC_KEY', 'INTERACTIONS_HOST', 'INTERACTIONS_PORT'],
	store: STORE,
	links: [...STORE, 'LINK_SECRET', 'LINK_SECRET_PREVIOUS'],
	'stats-api': ['STATS_API_BASE_URL', 'STATS_API_TIMEOUT_MS'],
	chart: ['CHART_RENDERER', 'QUICKCHART_URL'],
	channels: [...DISCORD, ...STORE],
	// The check reads only the public URL (the redirect URI to register); the OAuth2 secret is start-up's concern.
	web: ['WEB_PORT', 'WEB_PUBLIC_URL'],
	// The servers marked left are read from the store when it opens; a store that does not, or a bad SERVER_DATA_DAYS,
	// must not hide the privacy page's warning (the `store` and `config` checks say what is wrong).
	data: ['WEB_PORT', 'WEB_PUBLIC_URL', 'PRIVACY_POLICY_URL'],
};

/** The variable a configuration problem blames: every problem readConfig records starts with its name. */
export function blamedVariable(problem: string): string | null {
	return /^([A-Z][A-Z0-9_]*)\b/.exec(problem)?.[1] ?? null;
}

/** The bad variables among a check's inputs, in the order the check lists them. */
export function badInputsOf(checkName: string, badVariables: ReadonlySet<string>): string[] {
	return (CHECK_INPUTS[checkName] ?? []).filter((name) => badVariables.has(name));
}
