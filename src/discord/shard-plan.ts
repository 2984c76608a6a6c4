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
