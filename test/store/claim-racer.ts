// One process of the claim race: waits for "go", claims every key once, reports which it won.
import { openCoordinator } from '../../src/store/coordination.js';

const [storeUrl = '', prefix = '', keyCount = '0', order = 'forward'] = process.argv.slice(2);
const coordinator = await openCoordinator(storeUrl, { namespacePrefix: prefix });
const keys = Array.from({ length: Number(keyCount) }, (_unused, index) => `race-${index}`);
// Two racers walking the keys from opposite ends meet in the middle whenever they overlap at all.
if (order === 'reverse') keys.reverse();

process.send?.({ ready: true });
process.once('message', async ({ startAt }: { startAt: number }) => {
	// Both racers start at the same wall-clock moment, so their claims overlap.
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
	const won: string[] = [];
	for (const key of keys) {
		const result = await coordinator.claim(key, 60_000);
		if (result.claimed) won.push(key);
	}
	await coordinator.close();
	process.send?.({ won }, () => process.disconnect());
});
