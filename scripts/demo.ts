// `npm run demo`: the whole product offline. The bundled stats service with demo data, the local
// Discord stand-in and the real bot; plays the member flows and writes what Discord would show.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { startBot } from '../src/bot/start.js';
import { loadConfig } from '../src/config.js';
import { openStatsStore, seedDemoAccount, startStatsServer } from '../src/service/index.js';
import { registerBotCommands } from '../test/bot/harness.js';
import { startDiscordSandbox, type InteractionHandle, type SandboxMessage } from '../sandbox/index.js';
import { renderDemoPage, type DemoStep } from './demo/html-page.js';

const OUTPUT_DIR = resolve('demo-output');
const MEMBER = '400000000000000001';
const ADMIN = '400000000000000002';
const MANAGE_SERVER = (1n << 5n).toString();

const work = mkdtempSync(join(tmpdir(), 'adstats-demo-'));
rmSync(OUTPUT_DIR, { recursive: true, force: true });
mkdirSync(join(OUTPUT_DIR, 'replies'), { recursive: true });
mkdirSync(join(OUTPUT_DIR, 'charts'), { recursive: true });

const store = openStatsStore(join(work, 'service.sqlite'));
const memberAccount = seedDemoAccount(store, { name: 'Nova Ads', seed: 7 });
const serverAccount = seedDemoAccount(store, { name: 'Pixel Community', seed: 11 });
const service = await startStatsServer({ store, port: 0 });
const sandbox = await startDiscordSandbox({ guildCount: 1 });
const logLines: string[] = [];
const bot = await (async () => {
	const config = loadConfig({
		DISCORD_TOKEN: sandbox.token,
		DISCORD_APPLICATION_ID: sandbox.applicationId,
		DISCORD_API_URL: sandbox.apiUrl,
		STATS_API_BASE_URL: service.url,
		STORE_URL: `sqlite://${join(work, 'bot.sqlite')}`,
		LINK_SECRET: randomBytes(32).toString('hex'),
		CHART_RENDERER: 'local',
		STATS_COOLDOWN_SECONDS: '0',
		LOG_LEVEL: 'info',
	});
	const registered = await registerBotCommands(sandbox, sandbox.guildIds[0]!);
	console.log(`Registered ${registered.map((command) => `/${command.name}`).join(', ')}`);
	const logs = new Writable({
		write(chunk: Buffer, _encoding, done) {
			logLines.push(chunk.toString());
			done();
		},
	});
	return startBot(config, { logDestination: logs });
})();

const steps: DemoStep[] = [];
let chartCount = 0;

/** Saves the message as JSON (and its PNGs) and adds it to the page. */
function record(title: string, command: string, message: SandboxMessage): void {
	const slug = `${String(steps.length + 1).padStart(2, '0')}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
	const images: Record<string, string> = {};
	for (const file of message.files) {
		chartCount += 1;
		const path = `charts/${slug}-${file.name}`;
		writeFileSync(join(OUTPUT_DIR, path), file.bytes);
		images[file.name] = path;
	}
	const { files: _files, ...body } = message;
	writeFileSync(join(OUTPUT_DIR, 'replies', `${slug}.json`), `${JSON.stringify(body, null, 2)}\n`);
	const buttons = JSON.stringify(message.components).match(/"label":"([^"]+)"/g) ?? [];
	steps.push({
		title,
		command,
		isPrivate: message.isEphemeral,
		content: message.content,
		embeds: message.embeds,
		buttons: buttons.map((label) => label.slice(9, -1)),
		images,
	});
	console.log(`  ${message.isEphemeral ? 'private' : 'public '}  ${command}: ${summarize(message)}`);
}

function summarize(message: SandboxMessage): string {
	const parts = [];
	if (message.content) parts.push(message.content.split('\n')[0]!.slice(0, 90));
	if (message.embeds.length) parts.push(`${message.embeds.length} embed`);
	if (message.files.length) parts.push(`${message.files.map((f) => `${f.name} (${f.bytes.length} B)`).join(', ')}`);
	return parts.join(' | ');
}

async function submitModal(command: InteractionHandle, key: string, userId: string, permissions?: string) {
	const modal = await command.firstResponse();
	if (modal.type !== 9) throw new Error('expected a modal');
	return sandbox
		.dispatchModalSubmit({ customId: String(modal.data.custom_id), fields: { 'api-key': key }, userId, permissions })
		.finalMessage(10_000);
}

const publicMessages = () => sandbox.channelMessages(sandbox.guilds[0]!.defaultChannelId);

try {
	console.log('Playing the member flows:');
	record(
		'Stats before linking',
		'/stats',
		await sandbox.dispatchCommand({ name: 'stats', userId: MEMBER }).finalMessage(10_000),
	);
	record(
		'Link a key with the form',
		'/link',
		await submitModal(sandbox.dispatchCommand({ name: 'link', userId: MEMBER }), memberAccount.apiKey, MEMBER),
	);
	const stats = sandbox.dispatchCommand({ name: 'stats', userId: MEMBER });
	const privateStats = await stats.finalMessage(10_000);
	record('Private stats with chart', '/stats', privateStats);

	const sharedBefore = publicMessages().length;
	const share = sandbox.dispatchButton({
		customId: `stats:share:${MEMBER}:me:30`,
		userId: MEMBER,
		messageId: privateStats.id,
	});
	await share.waitFor((handle) => handle.followUps.some((f) => f.status < 300), 10_000);
	record('Share button: public copy', 'Share in channel', publicMessages()[sharedBefore]!);

	const shared = sandbox.dispatchCommand({
		name: 'stats',
		userId: MEMBER,
		options: [
			{ name: 'days', type: 4, value: 14 },
			{ name: 'share', type: 5, value: true },
		],
	});
	await shared.waitFor((handle) => handle.followUps.some((f) => f.status < 300), 10_000);
	record('Shared 14-day chart', '/stats days:14 share:true', publicMessages().at(-1)!);

	record(
		'Server key without Manage Server',
		'/server-key set',
		await sandbox.dispatchCommand({ name: 'server-key', subcommand: 'set', userId: MEMBER }).finalMessage(10_000),
	);
	record(
		'Server key set by an admin',
		'/server-key set',
		await submitModal(
			sandbox.dispatchCommand({ name: 'server-key', subcommand: 'set', userId: ADMIN, permissions: MANAGE_SERVER }),
			serverAccount.apiKey,
			ADMIN,
			MANAGE_SERVER,
		),
	);
	record(
		'Server key status',
		'/server-key status',
		await sandbox
			.dispatchCommand({ name: 'server-key', subcommand: 'status', userId: ADMIN, permissions: MANAGE_SERVER })
			.finalMessage(10_000),
	);
	record(
		"The server's stats",
		'/stats scope:server days:7',
		await sandbox
			.dispatchCommand({
				name: 'stats',
				userId: ADMIN,
				options: [
					{ name: 'scope', type: 3, value: 'server' },
					{ name: 'days', type: 4, value: 7 },
				],
			})
			.finalMessage(10_000),
	);
	record('Unlink', '/unlink', await sandbox.dispatchCommand({ name: 'unlink', userId: MEMBER }).finalMessage(10_000));

	sandbox.assertNoViolations();
	writeFileSync(join(OUTPUT_DIR, 'index.html'), renderDemoPage(steps));
	console.log(
		`\nDone: ${steps.length} replies, ${chartCount} chart PNGs, every request valid against Discord's API description.`,
	);
	console.log(`Open ${join(OUTPUT_DIR, 'index.html')} to see them as Discord would show them.`);
} finally {
	await bot.stop();
	await sandbox.close();
	await service.close();
	store.close();
	rmSync(work, { recursive: true, force: true });
}
