import { createHash } from 'node:crypto';
import { makeBadge } from 'badge-maker';
import type { Context } from 'hono';
import type { ChartTheme } from '../../render/chart.js';
import { STAT_FIGURES, type StatFigure } from '../../watch/watch-record.js';
import { HttpError } from '../http-error.js';
import type { WebEnv } from '../web-env.js';

// The chart PNG and the badge SVG of a public page, as other sites embed them: the query read as strictly as the
// JSON view's, and HTTP caching by a strong ETag, so README proxies and browsers ask again cheaply.

/**
 * Short, so a README's badge follows the figures within minutes through GitHub's image proxy; never `no-store`,
 * which some proxies refuse to cache at all.
 */
export const EMBED_CACHE_CONTROL = 'public, max-age=300';
export const DEFAULT_BADGE_FIGURE: StatFigure = 'sends-month';
/** Discord's blurple, as the chart's bars: the badge's value side reads as the same product. */
const BADGE_COLOR = '#5865f2';

/** `theme=light|dark`, light when absent or empty; anything else is a 400. */
export function readTheme<E extends WebEnv>(c: Context<E>): ChartTheme {
	const theme = c.req.query('theme');
	if (theme === undefined || theme === '' || theme === 'light') return 'light';
	if (theme === 'dark') return 'dark';
	throw new HttpError(400, { key: 'web.embed.badTheme' });
}

/** `figure=` one of the stat-channel figures, sends-month when absent or empty; anything else is a 400. */
export function readFigure<E extends WebEnv>(c: Context<E>): StatFigure {
	const figure = c.req.query('figure');
	if (figure === undefined || figure === '') return DEFAULT_BADGE_FIGURE;
	if ((STAT_FIGURES as readonly string[]).includes(figure)) return figure as StatFigure;
	throw new HttpError(400, { key: 'web.embed.badFigure' });
}

/** A strong ETag (a quoted string) naming these bytes, or the input they are drawn from, for good. */
export function strongEtag(kind: string, ...parts: string[]): string {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part).update('\u0000');
	return `"${kind}-${hash.digest('base64url').slice(0, 32)}"`;
}

/**
 * True when `If-None-Match` holds this ETag or `*`. It may list several; the comparison is the weak one RFC 9110
 * asks for here, so a proxy that weakened our tag (`W/"…"`) still gets its 304.
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
	if (!header) return false;
	return header.split(',').some((part) => {
		const tag = part.trim();
		return tag === '*' || tag.replace(/^W\//u, '') === etag;
	});
}

/** A 304: the same validators and caching as the 200 would carry, and no body. */
export function notModified<E extends WebEnv>(c: Context<E>, etag: string): Response {
	return c.body(null, 304, { ETag: etag, 'Cache-Control': EMBED_CACHE_CONTROL });
}

/** The body with its type and caching headers. */
export function embedAnswer<E extends WebEnv>(
	c: Context<E>,
	body: Buffer | string,
	contentType: string,
	etag: string,
): Response {
	const headers = { 'Content-Type': contentType, ETag: etag, 'Cache-Control': EMBED_CACHE_CONTROL };
	if (typeof body === 'string') return c.body(body, 200, headers);
	return c.body(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), 200, headers);
}

/**
 * shields.io's flat badge: label on grey, value on blurple. badge-maker escapes both texts for XML and measures
 * them with real font metrics, so a long German label still fits its box.
 */
export function badgeSvg(label: string, value: string): string {
	return makeBadge({ label, message: value, color: BADGE_COLOR, style: 'flat' });
}
