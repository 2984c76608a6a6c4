import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { Routes, type RESTGetAPIGatewayBotResult } from 'discord.js';
import { commandDefinitions } from '../../../commands/definitions/index.js';
import { fail, networkProblem, ok, warn, type Check, type CheckOutcome } from './check.js';
import { diffCommands } from './commands-diff.js';
import { discordProblem, isTokenRefused, type DoctorContext } from './context.js';

const DISCORD_DEADLINE_MS = 10_000;
const ON_DISCORD_DEADLINE = 'check DISCORD_API_URL and the network to Discord';
const TOKEN_REFUSED = 'not checked: Discord refused the token (see discord-token)';

/** Discord's refusal of an earlier call, or the error itself when it is not Discord's. */
function describe(error: unknown): string {
	return discordProblem(error) ?? `Discord did not answer: ${networkProblem(error)}`;
}

type Application = Awaited<ReturnType<DoctorContext['application']>>;

/** The token's own application, or the failure a check reports when Discord does not give it. */
async function tokenApplication(ctx: DoctorContext): Promise<{ application: Application } | { failure: CheckOutcome }> {
	try {
		return { application: await ctx.application() };
	} catch (error) {
		return { failure: fail(isTokenRefused(error) ? TOKEN_REFUSED : describe(error)) };
	}
}

/** A check of the token's own application: it runs once Discord gave the application, else reports why not. */
function applicationCheckOf(
	name: string,
	run: (ctx: DoctorContext, application: Application) => Promise<CheckOutcome>,
): Check<DoctorContext> {
	return {
		name,
		deadlineMs: DISCORD_DEADLINE_MS,
		onDeadline: ON_DISCORD_DEADLINE,
		async run(ctx) {
			const read = await tokenApplication(ctx);
			return 'failure' in read ? read.failure : run(ctx, read.application);
		},
	};
}

export const discordTokenCheck: Check<DoctorContext> = {
	name: 'discord-token',
	deadlineMs: DISCORD_DEADLINE_MS,
	onDeadline: ON_DISCORD_DEADLINE,
	async run(ctx) {
		try {
			const user = await ctx.botUser();
			if (!user.bot)
				return fail(`the token belongs to user ${user.id}, not a bot: set DISCORD_TOKEN to the bot's token`);
			return ok(`accepted for bot ${user.username} (${user.id})`);
		} catch (error) {
			if (isTokenRefused(error)) {
				return fail(
					'Discord refused DISCORD_TOKEN (401): copy the token again from the Developer Portal (Bot → Reset Token) into DISCORD_TOKEN',
				);
			}
			return fail(describe(error));
		}
	},
};

export const applicationCheck = applicationCheckOf('application', async (ctx, { id: applicationId }) => {
	const configured = ctx.config.applicationId;
	if (configured === null) {
		return warn(
			`DISCORD_APPLICATION_ID is not set (the token's application is ${applicationId}): npm run register needs it; set DISCORD_APPLICATION_ID=${applicationId}`,
		);
	}
	if (configured !== applicationId) {
		return fail(
			`DISCORD_APPLICATION_ID is ${configured} but the token belongs to application ${applicationId}: set DISCORD_APPLICATION_ID=${applicationId}, or use that application's token`,
		);
	}
	return ok(`DISCORD_APPLICATION_ID ${configured} is the token's application`);
});

// The token's own application: with a wrong DISCORD_APPLICATION_ID (see application) this still says what members see.
export const commandsCheck = applicationCheckOf('commands', async (ctx, { id: applicationId }) => {
	const guildId = ctx.config.devGuildId;
	const route = guildId
		? Routes.applicationGuildCommands(applicationId, guildId)
		: Routes.applicationCommands(applicationId);
	let registered: object[];
	try {
		// Without with_localizations Discord leaves the localisation dictionaries out.
		registered = (await ctx.rest.get(route, {
			query: new URLSearchParams({ with_localizations: 'true' }),
		})) as object[];
	} catch (error) {
		return fail(describe(error));
	}
	const where = guildId ? `in guild ${guildId} (DISCORD_DEV_GUILD_ID)` : 'globally';
	const diff = diffCommands(
		commandDefinitions.map((definition) => definition.toJSON()),
		registered,
	);
	const problems = [
		diff.missing.length > 0 ? `not registered: ${slashNames(diff.missing)}` : null,
		diff.changed.length > 0 ? `out of date: ${slashNames(diff.changed)}` : null,
		diff.extra.length > 0 ? `registered but no longer defined: ${slashNames(diff.extra)}` : null,
	].filter((problem) => problem !== null);
	if (problems.length === 0) return ok(`${registered.length} commands registered ${where}, as defined`);
	return fail(`${problems.join('; ')} (${where}): run npm run register`);
});

const slashNames = (names: string[]) => names.map((name) => `/${name}`).join(', ');

export const gatewayCheck: Check<DoctorContext> = {
	name: 'gateway',
	deadlineMs: DISCORD_DEADLINE_MS,
	onDeadline: ON_DISCORD_DEADLINE,
	async run(ctx) {
		let gateway: RESTGetAPIGatewayBotResult;
		try {
			gateway = (await ctx.rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
		} catch (error) {
			return fail(isTokenRefused(error) ? TOKEN_REFUSED : describe(error));
		}
		const { shards: recommended, session_start_limit: limit } = gateway;
		const configured = ctx.config.shardCount;
		const shards = configured === 'auto' ? recommended : configured;
		const sessions = `${limit.remaining} of ${limit.total} session starts left`;
		if (limit.remaining < shards) {
			const resetMinutes = Math.ceil(limit.reset_after / 60_000);
			return fail(
				`${sessions}, ${shards} needed to start: wait ${resetMinutes} min for Discord's reset before starting the bot (repeated restarts use them up)`,
			);
		}
		if (configured === 'auto') return ok(`SHARD_COUNT=auto: Discord recommends ${recommended}; ${sessions}`);
		if (configured < recommended) {
			return warn(
				`SHARD_COUNT=${configured} is below Discord's recommended ${recommended}: set SHARD_COUNT=${recommended} or auto; ${sessions}`,
			);
		}
		return ok(`SHARD_COUNT=${configured} (Discord recommends ${recommended}); ${sessions}`);
	},
};

export const interactionsCheck: Check<DoctorContext> = {
	name: 'interactions',
	deadlineMs: DISCORD_DEADLINE_MS,
	onDeadline: `${ON_DISCORD_DEADLINE}, and that INTERACTIONS_HOST and INTERACTIONS_PORT reach the bot`,
	async run(ctx) {
		const publicKey = ctx.config.discordPublicKey;
		if (publicKey === null) return fail('DISCORD_PUBLIC_KEY is not set: copy the Public Key from the Developer Portal');
		const read = await tokenApplication(ctx);
		if ('failure' in read) return read.failure;
		if (read.application.verify_key.toLowerCase() !== publicKey.toString('hex')) {
			return fail(
				"DISCORD_PUBLIC_KEY is not this application's Public Key, so every interaction would be refused: copy it from the Developer Portal (General Information → Public Key)",
			);
		}
		return probeEndpoint(ctx);
	},
};

/** A request signed with a made-up signature: the bot's endpoint must refuse it with 401, as Discord checks. */
async function probeEndpoint(ctx: DoctorContext): Promise<CheckOutcome> {
	const { interactionsHost, interactionsPort } = ctx.config;
	const keyOk = 'DISCORD_PUBLIC_KEY matches the application';
	if (interactionsPort === 0)
		return ok(`${keyOk}; INTERACTIONS_PORT=0 picks a free port, so the endpoint was not probed`);
	const host = ['0.0.0.0', '::', ''].includes(interactionsHost) ? '127.0.0.1' : interactionsHost;
	const address = `${host.includes(':') ? `[${host}]` : host}:${interactionsPort}`;
	try {
		const answer = await request(`http://${address}/interactions`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-signature-ed25519': randomBytes(64).toString('hex'),
				'x-signature-timestamp': String(Math.floor(Date.now() / 1000)),
			},
			body: JSON.stringify({ type: 1 }),
			signal: AbortSignal.timeout(5000),
		});
		await answer.body.dump();
		if (answer.statusCode === 401)
			return ok(`${keyOk}; the endpoint on ${address} refuses a badly signed request (401)`);
		return fail(
			`the endpoint on ${address} answered a badly signed request with ${answer.statusCode}, not 401: Discord removes such an endpoint; check that INTERACTIONS_PORT is the bot's port and nothing else listens there`,
		);
	} catch (error) {
		return warn(
			`${keyOk}, but nothing answers on ${address} (${networkProblem(error)}): start the bot (npm start), or set INTERACTIONS_HOST/INTERACTIONS_PORT to where it listens`,
		);
	}
}
