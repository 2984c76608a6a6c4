// The doctor's vocabulary: a check, its outcome, the deadline every check runs under, and the two
// output formats (docs/doctor.md, "Output"): `ok|warn|fail <check>: <detail>` lines or `--json`.

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckOutcome {
	status: CheckStatus;
	/** What was found and, for warn and fail, the command or setting that fixes it. No secret. */
	detail: string;
}

export interface CheckResult extends CheckOutcome {
	name: string;
}

export interface Check<Ctx> {
	/** One of the names docs/doctor.md lists; fixed, since hosts read the output by it. */
	name: string;
	/** The whole check, network and store included, finishes within this or fails. */
	deadlineMs: number;
	/** What the host should look at when the check ran out of time. */
	onDeadline: string;
	run(ctx: Ctx): Promise<CheckOutcome>;
}

export const ok = (detail: string): CheckOutcome => ({ status: 'ok', detail });
export const warn = (detail: string): CheckOutcome => ({ status: 'warn', detail });
export const fail = (detail: string): CheckOutcome => ({ status: 'fail', detail });

class CheckDeadlineError extends Error {}

/**
 * Runs one check within its deadline: a store or API that never answers costs this check a `fail`
 * and nothing else, since the others run beside it. The abandoned work is not cancelled; the CLI
 * exits once every check has a result.
 */
export async function runCheck<Ctx>(check: Check<Ctx>, ctx: Ctx): Promise<CheckResult> {
	let timer: NodeJS.Timeout | undefined;
	const expired = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new CheckDeadlineError()), check.deadlineMs);
	});
	const running = check.run(ctx);
	running.catch(() => undefined);
	try {
		return { name: check.name, ...(await Promise.race([running, expired])) };
	} catch (error) {
		if (error instanceof CheckDeadlineError) {
			return { name: check.name, ...fail(`no answer within ${seconds(check.deadlineMs)}: ${check.onDeadline}`) };
		}
		return { name: check.name, ...fail(`unexpected error: ${errorText(error)}`) };
	} finally {
		clearTimeout(timer);
	}
}

export function seconds(ms: number): string {
	return `${Number((ms / 1000).toFixed(1))} s`;
}

/** One line of an error for a detail: its message only, never a stack or a request's headers. */
export function errorText(error: unknown): string {
	const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
	const text = error instanceof Error ? `${error.message}${cause}` : String(error);
	return text.replace(/\s+/g, ' ').slice(0, 300);
}

/** Network errors as a host reads them: "connection refused", not an errno dump. */
export function networkProblem(error: unknown): string {
	const code = codeOf(error) ?? codeOf(error instanceof Error ? error.cause : undefined);
	switch (code) {
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'host name not found';
		case 'ECONNRESET':
			return 'connection reset';
		case 'ETIMEDOUT':
		case 'UND_ERR_CONNECT_TIMEOUT':
		case 'UND_ERR_HEADERS_TIMEOUT':
			return 'timed out';
		default:
			return errorText(error);
	}
}

function codeOf(error: unknown): string | undefined {
	if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
	return typeof error.code === 'string' ? error.code : undefined;
}

export interface DoctorReport {
	checks: CheckResult[];
	ok: number;
	warn: number;
	fail: number;
}

export function summarize(checks: CheckResult[]): DoctorReport {
	const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
	return { checks, ok: count('ok'), warn: count('warn'), fail: count('fail') };
}

export function formatText(report: DoctorReport): string {
	const lines = report.checks.map((check) => `${check.status} ${check.name}: ${check.detail}`);
	lines.push(`doctor: ${report.ok} ok, ${report.warn} warn, ${report.fail} fail`);
	return `${lines.join('\n')}\n`;
}

export function formatJson(report: DoctorReport): string {
	const checks = report.checks.map(({ name, status, detail }) => ({ name, status, detail }));
	return `${JSON.stringify({ checks, ok: report.ok, warn: report.warn, fail: report.fail })}\n`;
}

/**
 * Removes every secret of the environment from a text, whatever put it there: the values of variables
 * whose names say they are secret (token, secret, key, password), their decoded forms, and the
 * passwords inside URLs. The checks never print one on purpose; this is the last guard.
 */
export function secretRedactor(env: Record<string, string | undefined>): (text: string) => string {
	const secrets = new Set<string>();
	for (const [name, raw] of Object.entries(env)) {
		const value = raw?.trim();
		if (!value) continue;
		if (/TOKEN|SECRET|PASSWORD|API_KEY|PRIVATE/i.test(name) && value.length >= 6) {
			secrets.add(value);
			for (const encoding of ['hex', 'base64'] as const) {
				const decoded = Buffer.from(value, encoding);
				if (decoded.length >= 16) {
					secrets.add(decoded.toString('hex'));
					secrets.add(decoded.toString('base64'));
					secrets.add(decoded.toString('base64url'));
				}
			}
		}
		const password = urlPassword(value);
		if (password) secrets.add(password);
	}
	const ordered = [...secrets].filter((secret) => secret.length >= 6).sort((a, b) => b.length - a.length);
	return (text) => ordered.reduce((redacted, secret) => redacted.split(secret).join('[redacted]'), text);
}

function urlPassword(value: string): string | null {
	if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return null;
	try {
		const url = new URL(value);
		return url.password ? decodeURIComponent(url.password) : null;
	} catch {
		return null;
	}
}
