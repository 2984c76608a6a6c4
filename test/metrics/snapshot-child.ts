// A child process of the snapshot tests, standing in for one ShardingManager child: it records `argv[2]`
// answered /stats interactions, then answers snapshot requests unless `argv[3]` is `silent`.
import { answerSnapshotRequests, createMetrics } from '../../src/metrics/index.js';

const metrics = createMetrics({ commands: ['stats'], collectDefault: false });
for (let i = 0; i < Number(process.argv[2]); i += 1)
	metrics.interactions.inc({ command: 'stats', outcome: 'answered' });
if (process.argv[3] === 'silent') process.on('message', () => {});
else answerSnapshotRequests(metrics, process);
process.send?.({ type: 'started' });
