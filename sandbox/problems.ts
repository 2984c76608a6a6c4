/** One reason a request body is invalid, with the JSON path Discord would report it under. */
export interface Problem {
	path: string[];
	code: string;
	message: string;
	source: 'openapi' | 'limits' | 'rules';
}

type ErrorTree = { _errors?: { code: string; message: string }[]; [key: string]: unknown };

/** Discord's nested `errors` object of a 50035 answer: `{ data: { embeds: { 0: { title: { _errors: [...] } } } } }`. */
export function toDiscordErrors(problems: Problem[]): ErrorTree {
	const root: ErrorTree = {};
	for (const problem of problems) {
		let node = root;
		for (const segment of problem.path) {
			node = (node[segment] ??= {}) as ErrorTree;
		}
		(node._errors ??= []).push({ code: problem.code, message: problem.message });
	}
	return root;
}
