// The memory and start-up figures: the bot and a default-cache discord.js client, each in its own
// process with --expose-gc, fed the same guilds by the Discord stand-in in this process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDiscordSandbox } from '../sandbox/index.js';
import type { BenchFigure } from './figures.js';

const CHILD = fileURLToPath(new URL('./bot-child.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface ChildFigures {
	readyMs: number;
	guilds: number;
	heapMiB: number;
	rssMiB: number;
}

function runChild(mode: 'bot' | 'plain', apiUrl: string, token: string): Promise<ChildFigures> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--expose-gc', '--import', TSX, CHILD, mode, apiUrl, token], {
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

export async function runProcessBench(options: { guilds?: number } = {}): Promise<BenchFigure[]> {
	const guildCount = options.guilds ?? 2500;
	const figures: BenchFigure[] = [];

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
		const bot = await runChild('bot', small.apiUrl, small.token);
		const plain = await runChild('plain', small.apiUrl, small.token);
		figures.push({
			name: 'start-up: process start to READY (bot, 1 guild)',
			value: bot.readyMs,
			unit: 'ms',
			baseline: plain.readyMs,
			goal: 'report (baseline: a bare discord.js client process)',
			met: null,
		});
	} finally {
		await small.close();
	}
	return figures;
}
