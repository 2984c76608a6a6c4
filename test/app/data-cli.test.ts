// `npm run data -- …` against a SQLite store the features wrote through their own actions: figures one per line as
// `<name>: <number>`, exit 0 or 1, never a key; backup → restore into an empty store gives the same `links count`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runData } from '../../src/app/data-cli.js';
import { runLinks } from '../../src/app/links-cli.js';
import type { CoreContext } from '../../src/core/core-context.js';
import { startOutside, startStoreRun, storeTargets, type Outside, type StoreRun } from '../actions/store-runs.js';
import { buildMemberWorld, type MemberWorld } from '../privacy/member-world.js';

interface Ran {
	code: number;
	out: string;
	err: string;
}

const collector = () => {
	let text = '';
	return { write: (chunk: string) => ((text += chunk), true), text: () => text };
};

describe('npm run data on SQLite', () => {
	let outside: Outside;
	let run: StoreRun;
	let ctx: CoreContext;
	let world: MemberWorld;
	const dir = mkdtempSync(join(tmpdir(), 'data-cli-'));
	const env = (storeUrl: string) => ({ STORE_URL: storeUrl, LINK_SECRET: ctx.config.linkSecret.toString('hex') });
	const data = async (args: string[], storeUrl = ctx.config.storeUrl): Promise<Ran> => {
		const out = collector();
		const err = collector();
		const code = await runData(args, env(storeUrl), out as never, err as never);
		return { code, out: out.text(), err: err.text() };
	};
	const linksCount = async (storeUrl: string) => {
		const out = collector();
		const write = process.stdout.write.bind(process.stdout);
		process.stdout.write = out.write as never;
		try {
			assert.equal(await runLinks(['count'], env(storeUrl)), 0);
		} finally {
			process.stdout.write = write;
		}
		return out.text();
	};

	before(async () => {
		const [sqlite] = await storeTargets();
		outside = await startOutside();
		run = await startStoreRun(sqlite!, outside);
		({ ctx } = await run.open());
		world = await buildMemberWorld(ctx, outside, 'cli');
	});
	after(async () => {
		await run?.cleanup();
		await outside?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it('show and export a member: figures, then the JSON file, never a key', async () => {
		const shown = await data(['show', '--member', world.memberId]);
		assert.equal(shown.code, 0, shown.err);
		assert.match(shown.out, /^records: 13\n/);
		assert.match(shown.out, /^webhooks: 1$/m);
		assert.match(shown.out, /^member notes: 1$/m);
		assert.match(shown.out, /^links: 1$/m);
		assert.match(shown.out, /^reports: 1$/m);
		for (const line of shown.out.trimEnd().split('\n')) assert.match(line, /^[a-z ]+: \d+$/);
		const file = join(dir, 'export.json');
		const exported = await data(['export', '--member', world.memberId, '--out', file]);
		assert.equal(exported.code, 0, exported.err);
		assert.equal(exported.out, 'records: 13\n');
		const json = readFileSync(file, 'utf8');
		assert.equal((JSON.parse(json) as { user_id: string }).user_id, world.memberId);
		assert.ok(!json.includes(world.memberKey) && !json.includes(world.serverKey));
	});

	it('usage mistakes and a missing secret exit 1 with one line', async () => {
		for (const args of [[], ['show'], ['show', '--member', 'abc'], ['purge', '--member', '1'], ['restore']]) {
			const ran = await data(args);
			assert.equal(ran.code, 1, args.join(' '));
			assert.match(ran.err, /^data: .+\n$/);
		}
		const out = collector();
		const err = collector();
		const code = await runData(
			['forget', '--member', '1'],
			{ STORE_URL: ctx.config.storeUrl },
			out as never,
			err as never,
		);
		assert.equal(code, 1);
		assert.match(err.text(), /LINK_SECRET/);
	});

	it('backup, then restore into an empty store: the same links count; refused into one with data; a bad line', async () => {
		const file = join(dir, 'backup.jsonl');
		const saved = await data(['backup', file]);
		assert.equal(saved.code, 0, saved.err);
		const written = readFileSync(file, 'utf8');
		const again = await data(['backup', file]);
		assert.equal(again.code, 1);
		assert.match(again.err, /^data: .+backup\.jsonl already exists: a backup never overwrites a file\n$/m);
		assert.equal(readFileSync(file, 'utf8'), written, 'the existing backup is untouched');
		assert.match(saved.out, /^links: 2$/m);
		assert.match(saved.err, /LINK_SECRET/);
		assert.ok(!readFileSync(file, 'utf8').includes(world.memberKey));

		const emptyUrl = `sqlite://${join(dir, 'restored.sqlite')}`;
		const restored = await data(['restore', file], emptyUrl);
		assert.equal(restored.code, 0, restored.err);
		assert.match(restored.out, /^links: 2$/m);
		assert.match(restored.out, /^skipped: 0$/m);
		assert.equal(await linksCount(emptyUrl), await linksCount(ctx.config.storeUrl));

		const refused = await data(['restore', file], emptyUrl);
		assert.equal(refused.code, 1);
		assert.match(refused.err, /--replace/);

		const lines = readFileSync(file, 'utf8').split('\n');
		lines[4] = '{not json';
		const bad = join(dir, 'bad.jsonl');
		writeFileSync(bad, lines.join('\n'));
		const before = await linksCount(emptyUrl);
		const failed = await data(['restore', bad, '--replace'], emptyUrl);
		assert.equal(failed.code, 1);
		assert.equal(failed.err, 'data: line 5: not JSON\n');
		assert.equal(await linksCount(emptyUrl), before, 'nothing changed');
	});

	it('a store that does not answer exits 1 with one line that never quotes the URL', async () => {
		const ran = await data(['show', '--member', world.memberId], 'redis://user:hunter2-secret@127.0.0.1:1');
		assert.equal(ran.code, 1);
		assert.match(ran.err, /^data: .+\n$/u);
		assert.ok(!ran.err.includes('hunter2-secret'));
		assert.equal(ran.out, '');
	});

	it('forget and purge print what went, by kind; a second forget finds nothing', async () => {
		const forgot = await data(['forget', '--member', world.memberId]);
		assert.equal(forgot.code, 0, forgot.err);
		assert.match(forgot.out, /^deleted links: 1$/m);
		assert.match(forgot.out, /^scrubbed alerts: 1$/m);
		const again = await data(['forget', '--member', world.memberId]);
		assert.equal(again.out, 'deleted: 0\nscrubbed: 0\n');
		const purged = await data(['purge', '--server', world.guildId]);
		assert.equal(purged.code, 0, purged.err);
		assert.match(purged.out, /^deleted: \d+\n/);
		assert.match(purged.out, /^deleted reports: 1$/m);
		assert.match(purged.out, /^deleted settings: 1$/m);
		assert.match(purged.out, /^deleted webhooks: 1$/m);
		const none = await data(['purge', '--server', world.guildId]);
		assert.equal(none.out, 'deleted: 0\n', 'a purge that finds nothing says so');
	});
});
