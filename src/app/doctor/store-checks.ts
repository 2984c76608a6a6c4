import { randomBytes } from 'node:crypto';
import { checkLinks } from '../../links/check-links.js';
import { createKeyring } from '../../links/link-record.js';
import { storeSchemeOf } from '../../store-url.js';
import { StorageUnavailableError } from '../../errors.js';
import { StoreDeadlineError } from '../../store/with-deadline.js';
import { errorText, fail, ok, seconds, warn, type Check, type CheckOutcome } from './check.js';
import { DOCTOR_STORE_DEADLINE_MS, NoStoreYetError, type DoctorContext } from './context.js';

/** Opening plus three operations, each bounded by the store deadline; the check as a whole by this. */
const STORE_CHECK_DEADLINE_MS = 5000;
/** Probe entries expire by themselves should the delete not reach the store. */
const PROBE_TTL_MS = 60_000;
const STORE_FIX = 'check that the store runs and that STORE_URL names it (host, port, database, credentials)';

export const storeCheck: Check<DoctorContext> = {
	name: 'store',
	deadlineMs: STORE_CHECK_DEADLINE_MS,
	onDeadline: STORE_FIX,
	async run(ctx) {
		const scheme = storeSchemeOf(ctx.config.storeUrl) ?? 'store';
		let stores;
		try {
			stores = await ctx.stores();
		} catch (error) {
			return storeUnavailable(error, `the ${scheme} store could not be opened`);
		}
		// In the cache namespace, under a key no other code reads, with an expiry: the store ends as it was.
		const key = `doctor-probe:${randomBytes(8).toString('hex')}`;
		const value = randomBytes(8).toString('hex');
		const started = performance.now();
		try {
			await stores.cache.set(key, value, PROBE_TTL_MS);
			const read: unknown = await stores.cache.get(key);
			await stores.cache.delete(key);
			const ms = Math.round(performance.now() - started);
			if (read !== value) return fail(`the ${scheme} store did not return what was written to it: ${STORE_FIX}`);
			const slow = ms > DOCTOR_STORE_DEADLINE_MS / 2;
			const detail = `${scheme}: wrote, read and deleted a probe entry in ${ms} ms`;
			return slow ? warn(`${detail}, close to the ${seconds(DOCTOR_STORE_DEADLINE_MS)} deadline`) : ok(detail);
		} catch (error) {
			return storeUnavailable(error, `the ${scheme} store did not take the probe entry`);
		}
	},
};

function storeUnavailable(error: unknown, what: string): CheckOutcome {
	if (error instanceof NoStoreYetError) {
		return warn(`${error.message}: npm start creates it; if the bot ran before, STORE_URL names the wrong file`);
	}
	return fail(`${what} (${storeProblem(error)}): ${STORE_FIX}`);
}

/** The store's own words: a missed deadline, or what the backend reported (never a URL's password: see redact). */
function storeProblem(error: unknown): string {
	const cause = error instanceof StorageUnavailableError ? error.cause : error;
	if (cause instanceof StoreDeadlineError) return `no answer within ${seconds(cause.deadlineMs)}`;
	return errorText(cause);
}

export const linksCheck: Check<DoctorContext> = {
	name: 'links',
	deadlineMs: 30_000,
	onDeadline: 'the store is slow to list its links; run npm run links -- check',
	async run(ctx) {
		let stores;
		try {
			stores = await ctx.stores();
		} catch (error) {
			if (error instanceof NoStoreYetError) return ok('no store yet, so no link to open');
			return fail('not checked: the store is unavailable (see store)');
		}
		const keyring = createKeyring(ctx.config.linkSecret, ctx.config.linkSecretPrevious);
		let result;
		try {
			result = await checkLinks(stores, keyring);
		} catch (error) {
			if (!(error instanceof StorageUnavailableError)) throw error;
			return fail('not checked: the store is unavailable (see store)');
		}
		const unreadable = result.unreadable.length;
		const total = result.readable + unreadable;
		if (unreadable === 0)
			return ok(`${total} ${total === 1 ? 'link opens' : 'links open'} with the configured secrets`);
		const secrets = ctx.config.linkSecretPrevious ? 'LINK_SECRET or LINK_SECRET_PREVIOUS' : 'LINK_SECRET';
		return fail(
			`${unreadable} of ${total} links do not open with ${secrets}: set LINK_SECRET_PREVIOUS to the secret they were written with, then run npm run links -- reseal (npm run links -- check lists them)`,
		);
	},
};
