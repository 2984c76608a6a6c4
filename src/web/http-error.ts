import { describeExpectedError } from '../error-messages.js';
import { InvalidKeyError, ManageServerRequiredError, UserFacingError } from '../errors.js';
import type { FacingMessage, MessageKey } from '../i18n/index.js';
import type { MentionNames } from './html.js';

/** The statuses the dashboard answers with when it does not answer what was asked. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 500 | 503;

/** A link under an error page's text: where to go next. */
export interface ErrorLink {
	href: string;
	label: FacingMessage;
}

export interface HttpErrorOptions {
	/** Answer `{"error":{"code","message"}}` (the JSON and CSV routes) instead of a page. */
	json?: boolean;
	/** The JSON `code`; by default the status's usual one (`not_found`, `forbidden`, …). */
	code?: string;
	/** The page's heading: a message, or a name as it is (a server's); by default the status's usual title. */
	title?: FacingMessage | string;
	links?: ErrorLink[];
	/** Names for the `<#id>` and `<@&id>` mentions the text holds, shown instead of the bare ids. */
	names?: MentionNames;
}

/**
 * Ends a request with a status and words for the member, from a route or a middleware; the app's one `onError`
 * turns it into a page in the member's language or JSON. The text is a catalogue message, never a raw value a
 * member sent (a typed key included).
 */
export class HttpError extends Error {
	constructor(
		readonly status: ErrorStatus,
		readonly text: FacingMessage,
		readonly options: HttpErrorOptions = {},
	) {
		super(`${status} ${text.key}`);
		this.name = 'HttpError';
	}
}

const JSON_CODES: Record<ErrorStatus, string> = {
	400: 'bad_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	500: 'internal',
	503: 'unavailable',
};

export function jsonCodeOf(error: HttpError): string {
	return error.options.code ?? JSON_CODES[error.status];
}

/** 404, the same for everything a member may not know exists. */
export function notFoundError(options: { json?: boolean } = {}): HttpError {
	return new HttpError(
		404,
		{ key: 'web.notFound' },
		{ json: options.json, links: [{ href: '/', label: { key: 'web.back' } }] },
	);
}

export interface RefusalPage {
	/** The page the form was on, linked under the words. */
	back: { href: string; label: MessageKey };
	names?: MentionNames;
}

/**
 * What a core action's failure on a form answers. A refusal becomes a page with the words the slash command uses
 * (400, or 403 when it is for a permission: ManageServerRequiredError), a service that did not answer a 503 page;
 * the action stored nothing in either case. A bug comes back unchanged, for the app's 500.
 */
export function refusalError(error: unknown, page: RefusalPage): unknown {
	const message = describeExpectedError(error);
	if (message === null) return error;
	const refused = error instanceof UserFacingError || error instanceof InvalidKeyError;
	const status = !refused ? 503 : error instanceof ManageServerRequiredError ? 403 : 400;
	return new HttpError(status, message, {
		title: { key: status === 403 ? 'web.refusedTitle' : 'web.manage.notSavedTitle' },
		links: [{ href: page.back.href, label: { key: page.back.label } }],
		names: page.names,
	});
}
