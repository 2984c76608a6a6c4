import type { ChildProcess } from 'node:child_process';
import { ShardingManager, type Shard } from 'discord.js';
import { PROCESS_INDEX_ENV, SHARDS_ENV } from '../config.js';
import type { Logger } from '../logger.js';
import { spreadShards } from './shard-plan.js';

/** A child that is not ready in this long is reported (and discord.js's spawn rejects). */
const SPAWN_TIMEOUT_MS = 60_000;
/** SIGTERM gives each child its own graceful stop; past this it is killed. */
const STOP_TIMEOUT_MS = 15_000;

export interface BotProcesses {
	manager: ShardingManager;
	/** The shard ids each child runs, by child index. */
	plan: number[][];
	/** Stops respawning, sends SIGTERM to every child and resolves once all exited. */
	stop(): Promise<void>;
}

/**
 * Several processes over one shard set with discord.js's ShardingManager. Its unit is the child
 * process, so each of its "shards" here is one process, handed a contiguous range of gateway
 * shards through the SHARDS environment its children read; a dead child is respawned with the
 * same range. discord.js's own 'auto' count asks discord.com, so the total is always given.
 */
export async function startBotProcesses(options: {
	totalShards: number;
	processes: number;
	token: string;
	log: Logger;
	/** The entry each child runs: the bot's main, which starts the shards the manager hands it. */
	file: string;
	/** Extra environment for the children (tests pass the whole configuration this way). */
	env?: Record<string, string>;
	execArgv?: string[];
	/** Pause between children (Discord allows a shard IDENTIFY per 5 s per concurrency bucket). */
	spawnDelayMs?: number;
	/** Set: the children's stdout and stderr come here line by line instead of this process's own. */
	onChildOutput?: (childIndex: number, line: string) => void;
}): Promise<BotProcesses> {
	const { log, totalShards, processes } = options;
	const plan = spreadShards(totalShards, processes);
	const manager = new ShardingManager(options.file, {
		totalShards: processes,
		mode: 'process',
		respawn: true,
		token: options.token,
		// The default [] drops `--import tsx`, and a child could not load a .ts entry.
		execArgv: options.execArgv ?? process.execArgv,
		silent: options.onChildOutput !== undefined,
	});
	manager.on('shardCreate', (child: Shard) => {
		const shards = plan[child.id] ?? [];
		Object.assign(child.env as Record<string, string>, options.env ?? {}, {
			[SHARDS_ENV]: JSON.stringify(shards),
			SHARD_COUNT: String(totalShards),
			BOT_PROCESSES: String(processes),
			[PROCESS_INDEX_ENV]: String(child.id),
		});
		watchChild(child, shards, log);
		const onOutput = options.onChildOutput;
		if (onOutput) child.on('spawn', (proc) => forwardLines(proc as ChildProcess, (line) => onOutput(child.id, line)));
	});
	log.info({ processes, totalShards, plan }, 'starting bot processes');
	await manager.spawn({ amount: processes, delay: options.spawnDelayMs ?? 5500, timeout: SPAWN_TIMEOUT_MS });
	return { manager, plan, stop: () => stopChildren(manager, log) };
}

function watchChild(child: Shard, shards: number[], log: Logger): void {
	const childLog = log.child({ process: child.id, shards });
	// mode 'process': discord.js hands ChildProcess objects to these listeners.
	child.on('spawn', (proc) => childLog.info({ pid: (proc as ChildProcess).pid }, 'bot process started'));
	child.on('ready', () => childLog.info('bot process ready'));
	child.on('death', (proc) => {
		const { exitCode, signalCode } = proc as ChildProcess;
		childLog.warn({ exitCode, signal: signalCode }, 'bot process died');
	});
	child.on('error', (error: unknown) => childLog.error({ err: error }, 'bot process error'));
}

async function stopChildren(manager: ShardingManager, log: Logger): Promise<void> {
	manager.respawn = false;
	await Promise.all(
		[...manager.shards.values()].map(async (child) => {
			const proc = child.process;
			if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
			const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
			proc.kill('SIGTERM');
			const timer = setTimeout(() => {
				log.warn({ process: child.id }, 'bot process did not stop in time: killed');
				proc.kill('SIGKILL');
			}, STOP_TIMEOUT_MS);
			await exited;
			clearTimeout(timer);
		}),
	);
}

function forwardLines(proc: ChildProcess, onLine: (line: string) => void): void {
	for (const stream of [proc.stdout, proc.stderr]) {
		let pending = '';
		stream?.setEncoding('utf8').on('data', (chunk: string) => {
			const lines = (pending + chunk).split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) if (line) onLine(line);
		});
	}
}
