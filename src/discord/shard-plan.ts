import { createBotRest } from './bot-rest.js';
import { Routes, type RESTGetAPIGatewayBotResult } from 'discord.js';
import type { Config } from '../config.js';

/**
 * The total shard count: the configured number, or Discord's recommendation from `/gateway/bot` on
 * the configured API (discord.js's own 'auto' in ShardingManager always asks discord.com).
 */
export async function resolveShardCount(config: Pick<Config, 'shardCount' | 'discordApiUrl' | 'discordToken'>) {
	if (config.shardCount !== 'auto') return config.shardCount;
	const rest = createBotRest(config);
	const gateway = (await rest.get(Routes.gatewayBot())) as RESTGetAPIGatewayBotResult;
	if (!Number.isInteger(gateway.shards) || gateway.shards < 1) {
		throw new Error(`Discord recommended an unusable shard count: ${String(gateway.shards)}`);
	}
	return gateway.shards;
}

/** Contiguous shard ranges, one per process, as even as the counts allow (4 over 2: [0,1] and [2,3]). */
export function spreadShards(totalShards: number, processes: number): number[][] {
	if (processes < 1 || processes > totalShards) {
		throw new Error(`cannot spread ${totalShards} shard(s) over ${processes} process(es)`);
	}
	return Array.from({ length: processes }, (_, index) => {
		const from = Math.floor((index * totalShards) / processes);
		const to = Math.floor(((index + 1) * totalShards) / processes);
		return Array.from({ length: to - from }, (_, offset) => from + offset);
	});
}

/** Environment a ShardingManager child reads its shards from (discord.js's own names, JSON list). */
export const SHARDS_ENV = 'SHARDS';

/** The shard ids handed to this process by the manager, or null when it runs on its own. */
export function assignedShards(env: NodeJS.ProcessEnv, totalShards: number): number[] | null {
	if (env.SHARDING_MANAGER !== 'true') return null;
	const raw = env[SHARDS_ENV];
	let ids: unknown;
	try {
		ids = JSON.parse(raw ?? '');
	} catch {
		throw new Error(`${SHARDS_ENV} must be a JSON list of shard ids, got ${JSON.stringify(raw)}`);
	}
	if (typeof ids === 'number') ids = [ids];
	if (
		!Array.isArray(ids) ||
		ids.length === 0 ||
		!ids.every((id) => Number.isInteger(id) && (id as number) >= 0 && (id as number) < totalShards)
	) {
		throw new Error(`${SHARDS_ENV} must list shard ids below ${totalShards}, got ${JSON.stringify(raw)}`);
	}
	return ids as number[];
}

/** Environment naming a ShardingManager child's index (0, 1, …), for what each process must own alone. */
export const PROCESS_INDEX_ENV = 'BOT_PROCESS_INDEX';

/** This process's index among the manager's children; 0 when it runs on its own. */
export function processIndex(env: NodeJS.ProcessEnv): number {
	if (env.SHARDING_MANAGER !== 'true') return 0;
	const index = Number(env[PROCESS_INDEX_ENV] ?? 0);
	return Number.isInteger(index) && index >= 0 ? index : 0;
}
