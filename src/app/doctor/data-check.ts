import { ok, warn, type Check } from './check.js';
import type { DoctorContext } from './context.js';

/**
 * Members' privacy page: Discord asks a bot for a privacy-policy address (required for verification), and the
 * members need one page saying what is kept and how to have it deleted. The dashboard serves `/privacy`; with
 * PRIVACY_POLICY_URL that page redirects to the host's own policy, which is then the address to give.
 */
export const dataCheck: Check<DoctorContext> = {
	name: 'data',
	deadlineMs: 1000,
	onDeadline: 'check WEB_PUBLIC_URL and PRIVACY_POLICY_URL',
	async run(ctx) {
		const policy = ctx.config.privacyPolicyUrl ?? (ctx.config.webPublicUrl && `${ctx.config.webPublicUrl}/privacy`);
		if (!policy) {
			return warn(
				'members have no privacy page: serve the dashboard (WEB_PORT and WEB_PUBLIC_URL, which serves /privacy) or set PRIVACY_POLICY_URL to your own privacy policy',
			);
		}
		return ok(
			`members' privacy page is ${policy}: enter it as the application's Privacy Policy URL in the Discord Developer Portal`,
		);
	},
};
