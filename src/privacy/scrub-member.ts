// Removing a member's id from a record someone else owns (a server's alert they added): the record stays, the
// field that named them no longer does.
import type { RecordKind } from '../core/record-kinds.js';

type Fields = Record<string, unknown>;

/** LinkRecord's `linkedBy` is nullable; the other naming fields are typed as strings, so they become empty. */
const EMPTY_OF: Readonly<Record<string, string | null>> = { linkedBy: null };

/** The value with `userId` removed from the kind's naming fields, or null when none named them. */
export function scrubMember(kind: RecordKind, value: unknown, named: (id: unknown) => boolean): Fields | null {
	if (typeof value !== 'object' || value === null) return null;
	const next: Fields = { ...(value as Fields) };
	let changed = false;
	for (const field of kind.namingFields) {
		if (field === 'goals[].setBy') {
			if (!Array.isArray(next.goals)) continue;
			next.goals = next.goals.map((goal: unknown) => {
				if (typeof goal !== 'object' || goal === null || !named((goal as Fields).setBy)) return goal;
				changed = true;
				return { ...(goal as Fields), setBy: '' };
			});
		} else if (named(next[field])) {
			next[field] = field in EMPTY_OF ? EMPTY_OF[field] : '';
			changed = true;
		}
	}
	return changed ? next : null;
}
