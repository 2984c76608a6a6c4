// Plain words for `/privacy show` and what `/privacy delete` removed, in the member's language.
import type { MessageKey, Translate } from '../i18n/index.js';
import { formatUtcDate } from '../render/format.js';
import type { ForgetResult } from './forget-member.js';
import type { HeldKind } from './member-data.js';

/** The kinds a member is told about, in the order they read them; the others (claims, cooldowns) are plumbing. */
export const TOLD_KINDS = [
	'link',
	'memberGoals',
	'memberNotes',
	'digest',
	'session',
	'history',
	'serverLink',
	'report',
	'statChannel',
	'alert',
	'board',
	'serverGoals',
	'webhook',
] as const;
type ToldKind = (typeof TOLD_KINDS)[number];

const isTold = (id: string): id is ToldKind => (TOLD_KINDS as readonly string[]).includes(id);
const kindName = (t: Translate, id: ToldKind) => t(`privacy.kinds.${id}` satisfies MessageKey);
const day = (at: number) => new Date(at).toISOString().slice(0, 10);
/** A reply stays far below Discord's 2,000 characters with this many servers per line. */
const MAX_SERVERS_SHOWN = 5;

export function describeHeld(t: Translate, held: readonly HeldKind[], locale: string, pageUrl: string | null): string {
	const lines = [t('privacy.heading')];
	const told = held.filter((kind) => isTold(kind.kind));
	if (told.length === 0) lines.push(t('privacy.nothing'));
	for (const id of TOLD_KINDS) {
		const kind = told.find((candidate) => candidate.kind === id);
		if (!kind) continue;
		let line =
			kind.servers.length > 0
				? t('privacy.serverLine', {
						kind: kindName(t, id),
						count: kind.count,
						servers: kind.servers.slice(0, MAX_SERVERS_SHOWN).join(', '),
					})
				: t('privacy.line', { kind: kindName(t, id), count: kind.count });
		if (kind.detail) line += ` — ${kind.detail}`;
		if (kind.first !== null && kind.last !== null) {
			const first = formatUtcDate(day(kind.first), locale);
			const last = formatUtcDate(day(kind.last), locale);
			line += first === last ? ` (${first})` : ` (${first} – ${last})`;
		}
		lines.push(`- ${line}`);
	}
	if (pageUrl) lines.push(t('privacy.page', { url: pageUrl }));
	return lines.join('\n');
}

export function describeForgotten(t: Translate, { deleted, scrubbed }: ForgetResult): string {
	const lines: string[] = [];
	for (const id of TOLD_KINDS) {
		const count = deleted.get(id);
		if (count) lines.push(`- ${t('privacy.line', { kind: kindName(t, id), count })}`);
	}
	for (const id of TOLD_KINDS) {
		const count = scrubbed.get(id);
		if (count) lines.push(`- ${t('privacy.scrubbedLine', { kind: kindName(t, id), count })}`);
	}
	return lines.length === 0 ? t('privacy.deletedNothing') : [t('privacy.deleted'), ...lines].join('\n');
}
