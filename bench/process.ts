// The memory and start-up figures: the bot and a default-cache discord.js client, each in its own
// process with --expose-gc, fed the same guilds by the Discord stand-in in this process. The bot runs from
// the bundle `npm start` runs, built first from the source as it is now.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDiscordSandbox } from '../sandbox/index.js';
import { buildBundle } from '../scripts/build.mjs';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';

const CHILD = fileURLToPath(new URL('./bot-child.mjs', import.meta.url));

interface ChildFigures {
	readyMs: number;
	guilds: number;
	heapMiB: number;
	rssMiB: number;
}

function runChild(mode: 'bot' | 'plain', apiUrl: string, token: string): Promise<ChildFigures> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', CHILD, mode, apiUrl, token], {
			env: { ...process.env, BENCH_STARTED_AT: String(Date.now()) },
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('exit', (code) => {
			const line = out.trim().split('\n').at(-1) ?? '';
			if (code !== 0 || !line.startsWith('{')) reject(new Error(`${mode} child exited ${code}: ${out}`));
			else resolve(JSON.parse(line) as ChildFigures);
		});
	});
}

const round = (value: number) => Math.round(value * 10) / 10;
/** Start-up is timed this many times for each process; the medians are compared. */
const STARTS = 3;

export async function runProcessBench(options: { guilds?: number } = {}): Promise<BenchFigure[]> {
	const guildCount = options.guilds ?? 2500;
	const figures: BenchFigure[] = [];
	await buildBundle();

	const big = await startDiscordSandbox({ guildCount, channelsPerGuild: 20, rolesPerGuild: 16, membersPerGuild: 5 });
	try {
		const bot = await runChild('bot', big.apiUrl, big.token);
		const plain = await runChild('plain', big.apiUrl, big.token);
		if (bot.guilds !== guildCount || plain.guilds !== guildCount) throw new Error('not every guild arrived');
		const ratio = bot.heapMiB / plain.heapMiB;
		figures.push(
			{
				name: `heap after READY, ${guildCount} guilds (bot)`,
				value: round(bot.heapMiB),
				unit: 'MiB',
				baseline: round(plain.heapMiB),
				goal: 'at most 0.4 of the default-cache client (baseline)',
				met: ratio <= 0.4,
			},
			{
				name: `heap ratio bot / default-cache client, ${guildCount} guilds`,
				value: Math.round(ratio * 1000) / 1000,
				unit: 'ratio',
				baseline: 1,
				goal: '<= 0.4',
				met: ratio <= 0.4,
			},
			{
				name: `resident memory after READY, ${guildCount} guilds (bot)`,
				value: round(bot.rssMiB),
				unit: 'MiB',
				baseline: round(plain.rssMiB),
				goal: 'report (discord.js alone costs ~77 MiB RSS)',
				met: null,
			},
		);
	} finally {
		await big.close();
	}

	const small = await startDiscordSandbox({ guildCount: 1 });
	try {
		// One after the other, several times: a shared machine's load then weighs on both the same way.
		const bot: number[] = [];
		const plain: number[] = [];
		for (let run = 0; run < STARTS; run++) {
			bot.push((await runChild('bot', small.apiUrl, small.token)).readyMs);
			plain.push((await runChild('plain', small.apiUrl, small.token)).readyMs);
		}
		const botMs = percentile(bot, 50);
		const plainMs = percentile(plain, 50);
		const ratio = botMs / plainMs;
		figures.push(
			{
				name: `start-up: process start to READY (bot, 1 guild), median of ${STARTS}`,
				value: botMs,
				unit: 'ms',
				baseline: plainMs,
				goal: 'at most 1.3x a bare discord.js client process (baseline)',
				met: ratio <= 1.3,
			},
			{
				name: 'start-up ratio bot / bare discord.js client',
				value: Math.round(ratio * 1000) / 1000,
				unit: 'ratio',
				baseline: 1,
				goal: '<= 1.3',
				met: ratio <= 1.3,
			},
		);
	} finally {
		await small.close();
	}
	return figures;
}
