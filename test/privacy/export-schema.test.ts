// The export validates against the JSON schema docs/privacy.md publishes, read from the page itself, for a member
// with every kind of record (SQLite, through the features' own actions); and the schema can fail.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { CoreContext } from '../../src/core/core-context.js';
import { exportMember, type MemberExport } from '../../src/privacy/member-data.js';
import { startOutside, startStoreRun, storeTargets, type Outside, type StoreRun } from '../actions/store-runs.js';
import { buildMemberWorld, type MemberWorld } from './member-world.js';

const SCHEMA_HEADING = "## The export's JSON schema";

/** The first ```json block under the schema's heading in docs/privacy.md. */
function documentedSchema(): object {
	const page = readFileSync(new URL('../../docs/privacy.md', import.meta.url), 'utf8');
	const section = page.slice(page.indexOf(SCHEMA_HEADING));
	const block = /```json\n([\s\S]*?)\n```/u.exec(section)?.[1];
	assert.ok(section.startsWith(SCHEMA_HEADING) && block, 'docs/privacy.md holds the schema');
	return JSON.parse(block) as object;
}

// ajv-formats is CommonJS: its default export arrives wrapped under tsx.
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

describe("the export's JSON schema in docs/privacy.md", () => {
	let outside: Outside;
	let run: StoreRun;
	let ctx: CoreContext;
	let world: MemberWorld;
	let exported: MemberExport;
	const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
	const validate = ajv.compile(documentedSchema());
	const problems = () => ajv.errorsText(validate.errors);

	before(async () => {
		const [sqlite] = await storeTargets();
		outside = await startOutside();
		run = await startStoreRun(sqlite!, outside);
		({ ctx } = await run.open());
		world = await buildMemberWorld(ctx, outside, 'schema');
		exported = await exportMember(ctx, world.memberId);
	});
	after(async () => {
		await run?.cleanup();
		await outside?.close();
	});

	it('a real export with every kind of record validates', () => {
		assert.equal(exported.records.length, 13);
		assert.ok(validate(exported), problems());
	});

	it('an export carrying a sealed key, a whole key or an unknown kind does not', () => {
		const withRecord = (change: (record: Record<string, unknown>) => Record<string, unknown>) => ({
			...exported,
			records: exported.records.map((record) => (record.kind === 'link' ? change(record) : record)),
		});
		assert.equal(validate(withRecord((record) => ({ ...record, sealedKey: 'AAAA' }))), false);
		assert.equal(validate(withRecord((record) => ({ ...record, keyHint: world.memberKey }))), false);
		assert.equal(validate(withRecord((record) => ({ ...record, kind: 'note' }))), false);
		assert.equal(validate({ ...exported, user_id: 'someone' }), false);
	});
});
