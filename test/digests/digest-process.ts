// One bot process running the digest checks on a shared store, for test/digests/multi-process.test.ts:
// argv: storeUrl prefix apiUrl token from to. It reports each check's outcomes to its parent, and waits for the
// parent's start signal so two processes check the same instants at the same real time.
import { setDigest } from '../../src/digests/digest-actions.js';
import { manualClock, member, openDigestContext } from './support.js';

const [storeUrl, prefix, apiUrl, token, from, to, mode] = process.argv.slice(2);
const clock = manualClock(Number(from));
const env = await openDigestContext({ apiUrl: apiUrl!, token: token! }, clock, { storeUrl, prefix });
const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

if (mode === 'turn-on') {
	await setDigest(env.ctx, member(), {
		enabled: true,
		weekday: 'mon',
		hour: 9,
		timezone: 'Europe/Berlin',
		locale: 'en-US',
	});
}
await send({ ready: true });
await new Promise<void>((resolve) => process.once('message', () => resolve()));
const outcomes = await env.checkEvery5Minutes(Number(from), Number(to));
await send({ outcomes });
await env.close();
process.exit(0);
