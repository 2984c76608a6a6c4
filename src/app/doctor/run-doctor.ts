import { readConfig, type Config } from '../../config.js';
import type { Env } from '../../env-readers.js';
import { readPackageJson } from '../../project-files.js';
import { storeSchemeOf } from '../../store-url.js';
import {
	fail,
	ok,
	runCheck,
	secretRedactor,
	summarize,
	type Check,
	type CheckResult,
	type DoctorReport,
} from './check.js';
import { badInputsOf, blamedVariable } from './check-inputs.js';
import { channelsCheck } from './channels-check.js';
import { dataCheck } from './data-check.js';
import { createDoctorContext, type DoctorContext, type DoctorOptions } from './context.js';
import {
	applicationCheck,
	commandsCheck,
	discordTokenCheck,
	gatewayCheck,
	interactionsCheck,
} from './discord-checks.js';
import { chartCheck, statsApiCheck, webCheck } from './service-checks.js';
import { linksCheck, storeCheck } from './store-checks.js';

/**
 * The checks in docs/doctor.md's order, each with whether it applies to the configuration. `web` (with
 * WEB_PORT) joins once the configuration has the dashboard's variables; `data` applies to every configuration.
 */
function checksFor(config: Config): Check<DoctorContext>[] {
	const httpMode = config.interactionsPort !== null;
	return [
		discordTokenCheck,
		applicationCheck,
		commandsCheck,
		...(httpMode ? [] : [gatewayCheck]),
		...(httpMode ? [interactionsCheck] : []),
		storeCheck,
		linksCheck,
		statsApiCheck,
		...(config.chartRenderer === 'none' ? [] : [chartCheck]),
		channelsCheck,
		...(config.webPort === null ? [] : [webCheck]),
		dataCheck,
	];
}

/**
 * Runs every check that applies, concurrently, each within its own deadline; never prints. Each variable is
 * read on its own (start-up's rules): a bad one fails `config` and the checks that read it, and every other
 * check still runs on what did parse. Discord calls draw from the REST budget of the store the bot shares.
 */
export async function runDoctor(env: Env, options: DoctorOptions = {}): Promise<DoctorReport> {
	const redact = secretRedactor(env);
	const { config, problems } = readConfig(env);
	const badVariables = new Set(problems.map(blamedVariable).filter((name) => name !== null));
	const results: CheckResult[] = [
		{
			name: 'config',
			...(problems.length === 0
				? ok(describeConfig(config))
				: fail(`${problems.join('; ')}: fix these in the environment or .env (see .env.example)`)),
		},
		{ name: 'node', ...checkNode() },
	];
	const ctx = createDoctorContext(config, options);
	try {
		const checks = checksFor(config).map((check) => {
			const badInputs = badInputsOf(check.name, badVariables);
			if (badInputs.length === 0) return runCheck(check, ctx);
			const named = `${badInputs.join(', ')} ${badInputs.length === 1 ? 'is' : 'are'}`;
			return { name: check.name, ...fail(`not checked: ${named} not valid (see config)`) };
		});
		results.push(...(await Promise.all(checks)));
	} finally {
		// Bounded: a store that never answered must not hold the report back.
		await ctx.close();
	}
	return summarize(results.map((result) => ({ ...result, detail: redact(result.detail) })));
}

function describeConfig(config: Config): string {
	const mode = config.interactionsPort === null ? 'gateway' : 'HTTP interactions';
	return `every variable parses (${mode} mode, ${storeSchemeOf(config.storeUrl)} store, CHART_RENDERER=${config.chartRenderer})`;
}

const packageJson = readPackageJson();

/** `engines.node` as `>=X.Y.Z` (the only form package.json uses) against the running Node.js. */
function checkNode() {
	const wanted = packageJson.engines?.node ?? '>=20';
	const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(wanted.trim());
	const running = process.versions.node;
	if (!minimum) return ok(`Node.js ${running} (engines: ${wanted}, not compared)`);
	const want = minimum.slice(1, 4).map((part) => Number(part ?? 0));
	const have = running.split('.').map(Number);
	for (let i = 0; i < 3; i++) {
		const a = have[i] ?? 0;
		const b = want[i] ?? 0;
		if (a > b) break;
		if (a < b)
			return fail(`Node.js ${running} does not satisfy engines ${wanted}: install Node.js ${want.join('.')} or newer`);
	}
	return ok(`Node.js ${running} satisfies ${wanted}`);
}
