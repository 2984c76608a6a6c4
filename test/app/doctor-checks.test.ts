import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { diffCommands } from '../../src/app/doctor/commands-diff.js';
import { channelPermissions } from '../../src/app/doctor/permissions.js';
import { ok, runCheck, secretRedactor, type Check } from '../../src/app/doctor/check.js';
import { commandDefinitions } from '../../commands/definitions/index.js';
import { badInputsOf, blamedVariable } from '../../src/app/doctor/check-inputs.js';
import { readConfig } from '../../src/config.js';
import { dataCheck } from '../../src/app/doctor/data-check.js';
import { createDoctorContext, NoStoreYetError, type DoctorContext } from '../../src/app/doctor/context.js';
import { markServerLeft } from '../../src/privacy/left-server-actions.js';
import { openStores } from '../../src/store/open-stores.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('a check that never settles fails at its deadline while the others finish', async () => {
	const hangs: Check<null> = {
		name: 'store',
		deadlineMs: 300,
		onDeadline: 'check STORE_URL',
		run: () => new Promise(() => undefined),
	};
	const answers: Check<null> = { name: 'chart', deadlineMs: 300, onDeadline: '', run: async () => ok('drawn') };
	const started = performance.now();
	const results = await Promise.all([runCheck(hangs, null), runCheck(answers, null)]);
	const ms = performance.now() - started;
	assert.deepEqual(results, [
		{ name: 'store', status: 'fail', detail: 'no answer within 0.3 s: check STORE_URL' },
		{ name: 'chart', status: 'ok', detail: 'drawn' },
	]);
	assert.ok(ms >= 290 && ms < 1500, `took ${Math.round(ms)} ms`);
});

test('the redactor removes secrets, their decoded forms and URL passwords', () => {
	const secret = Buffer.alloc(32, 7);
	const redact = secretRedactor({
		DISCORD_TOKEN: 'abc.def.ghijkl',
		LINK_SECRET: secret.toString('hex'),
		STORE_URL: 'postgres://bot:s3cr3t-pass@db/bot',
		STATS_API_BASE_URL: 'http://127.0.0.1:8080',
	});
	const text = redact(`token abc.def.ghijkl, ${secret.toString('base64')}, s3cr3t-pass, 127.0.0.1:8080`);
	assert.equal(text, 'token [redacted], [redacted], [redacted], 127.0.0.1:8080');
});

test('registered commands as Discord returns them equal their definitions; changes are named', () => {
	const definitions = commandDefinitions.map((definition) => definition.toJSON());
	// Discord adds ids and versions and stores empty fields its own way.
	const registered = definitions.map((json, i) => ({
		...json,
		id: String(1000 + i),
		application_id: '1',
		version: '2',
		default_member_permissions: json.default_member_permissions ?? null,
		nsfw: false,
		integration_types: json.integration_types ?? [0],
		contexts: json.contexts ?? null,
	}));
	assert.deepEqual(diffCommands(definitions, registered), { missing: [], changed: [], extra: [] });
	const edited = registered.map((json) => (json.name === 'link' ? { ...json, description: 'old' } : json));
	assert.deepEqual(diffCommands(definitions, [...edited.slice(1), { name: 'old' }]), {
		missing: ['stats'],
		changed: ['link'],
		extra: ['old'],
	});
});

test("permissions follow Discord's order: roles, @everyone overwrite, role overwrites, member overwrite", () => {
	const subject = {
		guildId: 'g',
		ownerId: null,
		userId: 'bot',
		roles: [
			{ id: 'g', permissions: String(1n << 10n) },
			{ id: 'r', permissions: String((1n << 11n) | (1n << 15n)) },
		],
		memberRoles: ['r'],
	};
	const view = 1n << 10n;
	const send = 1n << 11n;
	const attach = 1n << 15n;
	assert.equal(channelPermissions(subject, []), view | send | attach);
	const denyAttach = { id: 'g', type: 0 as const, allow: '0', deny: String(attach) };
	assert.equal(channelPermissions(subject, [denyAttach]), view | send);
	const roleAllows = { id: 'r', type: 0 as const, allow: String(attach), deny: '0' };
	assert.equal(channelPermissions(subject, [denyAttach, roleAllows]), view | send | attach);
	const memberDenies = { id: 'bot', type: 1 as const, allow: '0', deny: String(send) };
	assert.equal(channelPermissions(subject, [roleAllows, memberDenies]), view | attach);
	const admin = {
		...subject,
		roles: [...subject.roles, { id: 'a', permissions: String(1n << 3n) }],
		memberRoles: ['r', 'a'],
	};
	assert.ok((channelPermissions(admin, [memberDenies]) & send) !== 0n);
});

test('every configuration problem blames a documented variable, which fails only the checks that read it', () => {
	const documented = new Set(
		[...readFileSync(new URL('../../.env.example', import.meta.url), 'utf8').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map(
			(match) => match[1],
		),
	);
	// Every variable wrong at once, and the cross-variable rules (HTTP mode with BOT_PROCESSES, WEB_PORT without
	// its secret) broken too.
	const { problems } = readConfig({
		DISCORD_API_URL: 'discord api',
		DISCORD_APPLICATION_ID: 'app',
		DISCORD_DEV_GUILD_ID: 'guild',
		STATS_API_BASE_URL: 'http://stats.example.org/api/v1/stats',
		STORE_URL: 'mysql://db/bot',
		LINK_SECRET: Buffer.alloc(16, 1).toString('hex'),
		LINK_SECRET_PREVIOUS: 'short',
		CHART_RENDERER: 'svg',
		QUICKCHART_URL: 'ftp://charts',
		STATS_CACHE_TTL_SECONDS: '-1',
		LOG_LEVEL: 'loud',
		HISTORY_DAYS: '7',
		SHARD_COUNT: '0',
		BOT_PROCESSES: '2',
		INTERACTIONS_PORT: '8443',
		WEB_PORT: '8080',
		WEB_PUBLIC_URL: 'https://stats.example.org/path',
	});
	assert.ok(problems.length >= 15, problems.join('\n'));
	for (const problem of problems) {
		const variable = blamedVariable(problem);
		assert.ok(variable !== null && documented.has(variable), `blames no documented variable: ${problem}`);
	}
	const bad = new Set(problems.map(blamedVariable).filter((name) => name !== null));
	assert.deepEqual(badInputsOf('links', bad), ['STORE_URL', 'LINK_SECRET', 'LINK_SECRET_PREVIOUS']);
	assert.deepEqual(badInputsOf('chart', bad), ['CHART_RENDERER', 'QUICKCHART_URL']);
	assert.deepEqual(badInputsOf('discord-token', new Set(['LINK_SECRET', 'CHART_RENDERER'])), []);
	assert.deepEqual(badInputsOf('node', bad), []);
	// What each check really reads: web only its URL (the OAuth2 secret and client id are start-up's), gateway
	// SHARD_COUNT and not BOT_PROCESSES.
	assert.ok(bad.has('DISCORD_CLIENT_SECRET') && bad.has('DISCORD_APPLICATION_ID') && bad.has('BOT_PROCESSES'));
	// (WEB_PORT: here with BOT_PROCESSES=2.)
	assert.deepEqual(badInputsOf('web', bad), ['WEB_PORT', 'WEB_PUBLIC_URL']);
	assert.deepEqual(badInputsOf('gateway', bad), ['DISCORD_TOKEN', 'DISCORD_API_URL', 'SHARD_COUNT']);
	assert.deepEqual(badInputsOf('web', new Set(['DISCORD_CLIENT_SECRET', 'DISCORD_APPLICATION_ID'])), []);
});

test('data: warns without a privacy page, else names the Privacy Policy URL to enter in the Developer Portal', async () => {
	const base = {
		DISCORD_TOKEN: 'token',
		DISCORD_APPLICATION_ID: '123456789012345678',
		STATS_API_BASE_URL: 'http://stats.example.org',
		LINK_SECRET: Buffer.alloc(32, 1).toString('hex'),
		DISCORD_CLIENT_SECRET: 'client-secret',
	};
	const check = async (env: Record<string, string>) => {
		const { config, problems } = readConfig({ ...base, ...env });
		assert.deepEqual(problems, []);
		// No store yet (a host running the doctor before the first start): nothing to say about servers left.
		const stores = async () => Promise.reject(new NoStoreYetError('data/bot.sqlite'));
		return runCheck(dataCheck, { config, stores } as unknown as DoctorContext);
	};
	const none = await check({});
	assert.equal(none.status, 'warn');
	assert.match(none.detail, /no privacy page.*WEB_PUBLIC_URL.*PRIVACY_POLICY_URL/);
	const dashboard = await check({ WEB_PORT: '8080', WEB_PUBLIC_URL: 'https://stats.example.org' });
	assert.deepEqual(dashboard, {
		name: 'data',
		status: 'ok',
		detail:
			"members' privacy page is https://stats.example.org/privacy: enter it as the application's Privacy Policy URL in the Discord Developer Portal",
	});
	// The dashboard's /privacy redirects to the host's own policy: that is the address to give.
	const dashboardEnv: Record<string, string> = { WEB_PORT: '8080', WEB_PUBLIC_URL: 'https://stats.example.org' };
	for (const env of [{}, dashboardEnv]) {
		const own = await check({ ...env, PRIVACY_POLICY_URL: 'https://example.org/policy' });
		assert.equal(own.status, 'ok');
		assert.match(own.detail, /^members' privacy page is https:\/\/example\.org\/policy: enter it as/);
	}
});

test('data: lists the servers marked left and when each is purged; warns when a purge is overdue', async () => {
	const dir = mkdtempSync(join(tmpdir(), 'doctor-data-'));
	const storeUrl = `sqlite://${join(dir, 'bot.sqlite')}`;
	try {
		const stores = await openStores(storeUrl);
		// One process on a SQLite file locks in memory: the coordinator is never asked.
		const coordinator = { claim: async () => ({ claimed: false as const, retryAfterMs: 0 }) };
		const marks = { stores, coordinator, config: { storeUrl } };
		const log = { info: () => undefined, warn: () => undefined };
		const day = 86_400_000;
		const now = Date.now();
		await markServerLeft({ ...marks, log, now: () => now - 2 * day }, '200000000000000001', 'guildDelete');
		await markServerLeft({ ...marks, log, now: () => now - 10 * day }, '200000000000000002', 'ready');
		await stores.close();
		const check = async (env: Record<string, string>) => {
			const { config, problems } = readConfig({
				DISCORD_TOKEN: 'token',
				STATS_API_BASE_URL: 'http://stats.example.org',
				LINK_SECRET: Buffer.alloc(32, 1).toString('hex'),
				PRIVACY_POLICY_URL: 'https://example.org/policy',
				STORE_URL: storeUrl,
				...env,
			});
			assert.deepEqual(problems, []);
			const ctx = createDoctorContext(config);
			try {
				return await runCheck(dataCheck, ctx);
			} finally {
				await ctx.close();
			}
		};
		const date = (at: number) => `${new Date(at).toISOString().slice(0, 16)}Z`;
		const waiting = await check({});
		assert.equal(waiting.status, 'ok');
		assert.equal(
			waiting.detail,
			"members' privacy page is https://example.org/policy: enter it as the application's Privacy Policy URL in the Discord Developer Portal; " +
				`2 servers marked left (SERVER_DATA_DAYS=30): 200000000000000002 purged ${date(now + 20 * day)}, ` +
				`200000000000000001 purged ${date(now + 28 * day)}`,
		);
		const overdue = await check({ SERVER_DATA_DAYS: '5' });
		assert.equal(overdue.status, 'warn');
		assert.match(overdue.detail, new RegExp(`200000000000000002 due since ${date(now - 5 * day)}`));
		assert.match(overdue.detail, /1 overdue: is the bot running\?/);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
