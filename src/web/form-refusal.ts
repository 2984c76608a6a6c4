import { describeExpectedError } from '../error-messages.js';
import { InvalidKeyError, UserFacingError } from '../errors.js';
import type { MessageKey } from '../i18n/index.js';
import type { MentionNames } from './html.js';
import { HttpError } from './http-error.js';

export interface RefusalPage {
	/** The member lacks the permission the action asked for (Manage Server): 403 instead of 400. */
	forbidden: boolean;
	/** The page the form was on, linked under the words. */
	back: { href: string; label: MessageKey };
	names?: MentionNames;
}

/**
 * What a core action's failure on a form answers. A refusal becomes a page with the words the slash command uses
 * (400, or 403 for a permission), a service that did not answer a 503 page; the action stored nothing in either
 * case. A bug comes back unchanged, for the app's 500.
 */
export function refusalError(error: unknown, page: RefusalPage): unknown {
	const message = describeExpectedError(error);
	if (message === null) return error;
	const refused = error instanceof UserFacingError || error instanceof InvalidKeyError;
	const status = !refused ? 503 : page.forbidden ? 403 : 400;
	return new HttpError(status, message, {
		title: { key: status === 403 ? 'web.refusedTitle' : 'web.manage.notSavedTitle' },
		links: [{ href: page.back.href, label: { key: page.back.label } }],
		names: page.names,
	});
}
