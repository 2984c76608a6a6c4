// A /stats cache hit with 50 notes on the member's chart (the most a scope may have) beside one without, in one bot
// process and the same run: reading the notes, keying the chart input by them and drawing them must cost a cached
// reply (almost) nothing, since the input, the config and the PNG are reused while the notes stay the same.
import { addDays, utcDateOf } from '../src/history/utc-days.js';
import { MAX_NOTES_PER_SCOPE } from '../src/notes/note-record.js';
import { seedDemoAccount } from '../src/service/index.js';
import type { DiscordSandbox } from '../sandbox/index.js';
import type { BenchFigure } from './figures.js';
import { percentile } from './percentile.js';
import { botEnv, linkMember, measureSequential, openBenchWorld, startBotProcess } from './stats.js';

/** Rounds per member, in TURNS alternating turns, so the machine's load weighs on both alike. */
const ROUNDS = 800;
const TURNS = 8;
/** The goal: a cache hit with 50 notes within 10 % of one without. */
const MAX_RATIO = 1.1;

/** Adds 50 notes on the member's own charts, spread over the 30 days the default /stats shows. */
async function addBenchNotes(sandbox: DiscordSandbox, userId: string): Promise<void> {
	const today = utcDateOf(Date.now());
	for (let i = 0; i < MAX_NOTES_PER_SCOPE; i++) {
		const message = await sandbox
			.dispatchCommand({
				name: 'note',
				subcommand: 'add',
				userId,
				options: [
					{ name: 'date', type: 3, value: addDays(today, -(i % 30)) },
					{ name: 'text', type: 3, value: `campaign ${i} started with a longer text` },
				],
			})
			.finalMessage(10_000);
		if (!message.content.startsWith('Note added')) throw new Error(`note not added: ${message.content}`);
	}
}

export async function runNotesBench(): Promise<BenchFigure[]> {
	const { store, sandbox, env, close } = await openBenchWorld('adstats-bench-notes-');
	try {
		const plain = '500000000000002000';
		const noted = '500000000000002001';
		const bot = await startBotProcess(botEnv(sandbox, env, 60));
		// Two accounts seeded alike: the same days and figures, so only the notes differ.
		await linkMember(sandbox, plain, seedDemoAccount(store, { name: 'bench plain' }).apiKey);
		await linkMember(sandbox, noted, seedDemoAccount(store, { name: 'bench noted' }).apiKey);
		await addBenchNotes(sandbox, noted);
		const without = { total: [] as number[], own: [] as number[], cpuMs: [] as number[] };
		const withNotes = { total: [] as number[], own: [] as number[], cpuMs: [] as number[] };
		try {
			for (let turn = 0; turn < TURNS; turn++) {
				for (const [into, userId] of [
					[without, plain],
					[withNotes, noted],
				] as const) {
					const measured = await measureSequential(sandbox, bot, userId, ROUNDS / TURNS);
					into.total.push(...measured.total);
					into.own.push(...measured.own);
					into.cpuMs.push(measured.cpuMsPerStats);
				}
			}
		} finally {
			await bot.stop();
		}
		sandbox.assertNoViolations();
		const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
		const cpuRatio = mean(withNotes.cpuMs) / mean(without.cpuMs);
		const p50Ratio = percentile(withNotes.total, 50) / percentile(without.total, 50);
		const ownRatio = percentile(withNotes.own, 50) / percentile(without.own, 50);
		return [
			{
				name: '/stats cache hit with 50 notes, CPU per interaction',
				value: mean(withNotes.cpuMs),
				unit: 'ms',
				baseline: mean(without.cpuMs),
				goal: 'baseline: the same member without notes, same run',
				met: null,
			},
			{
				name: '/stats cache hit with 50 notes, CPU per interaction as a ratio to none',
				value: cpuRatio,
				unit: 'x',
				baseline: 1,
				goal: `<= ${MAX_RATIO}x`,
				met: cpuRatio <= MAX_RATIO,
			},
			{
				name: "/stats cache hit with 50 notes, the bot's own share p50",
				value: percentile(withNotes.own, 50),
				unit: 'ms',
				baseline: percentile(without.own, 50),
				goal: 'baseline: the same member without notes, same run',
				met: null,
			},
			{
				name: "/stats cache hit with 50 notes, the bot's own share p50 as a ratio to none",
				value: ownRatio,
				unit: 'x',
				baseline: 1,
				goal: `<= ${MAX_RATIO}x`,
				met: ownRatio <= MAX_RATIO,
			},
			{
				name: '/stats cache hit with 50 notes, end to end p50',
				value: percentile(withNotes.total, 50),
				unit: 'ms',
				baseline: percentile(without.total, 50),
				goal: 'baseline: the same member without notes, same run',
				met: null,
			},
			{
				name: '/stats cache hit with 50 notes, end to end p50 as a ratio to none',
				value: p50Ratio,
				unit: 'x',
				baseline: 1,
				goal: `<= ${MAX_RATIO}x`,
				met: p50Ratio <= MAX_RATIO,
			},
		];
	} finally {
		await close();
	}
}
