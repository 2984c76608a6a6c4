export interface HealthCheck {
	name: string;
	ok: boolean;
	detail?: string;
}

export interface HealthReport {
	/** True when every check passed: the bot can answer members. */
	ready: boolean;
	checks: HealthCheck[];
}

/** Resolves true/false, or ok with a detail; a throw counts as failed. The signal aborts at the deadline. */
export type HealthProbe = (signal: AbortSignal) => Promise<boolean | { ok: boolean; detail?: string }>;

/** A probe that gives no answer within this is failed, so /healthz answers well within a scraper's timeout. */
export const PROBE_DEADLINE_MS = 1000;
const MAX_DETAIL_LENGTH = 200;

class ProbeDeadlineError extends Error {
	override name = 'ProbeDeadlineError';
}

// A thrown error's message may quote a connection string or a server's reply, so only its kind is reported.
function describeFailure(error: unknown): string {
	if (error instanceof ProbeDeadlineError) return error.message;
	const code = (error as { code?: unknown } | null)?.code;
	const kind = error instanceof Error ? error.name : typeof error;
	return typeof code === 'string' || typeof code === 'number' ? `${kind} (${code})` : kind;
}

async function runProbe(name: string, probe: HealthProbe, deadlineMs: number): Promise<HealthCheck> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => {
			const error = new ProbeDeadlineError(`no answer within ${deadlineMs} ms`);
			controller.abort(error);
			reject(error);
		}, deadlineMs);
	});
	try {
		const outcome = await Promise.race([probe(controller.signal), deadline]);
		const { ok, detail } = typeof outcome === 'boolean' ? { ok: outcome, detail: undefined } : outcome;
		return detail === undefined ? { name, ok } : { name, ok, detail: detail.slice(0, MAX_DETAIL_LENGTH) };
	} catch (error) {
		return { name, ok: false, detail: describeFailure(error) };
	} finally {
		clearTimeout(timer);
	}
}

/** Runs the named probes concurrently, each within `deadlineMs`; ready when all of them pass. */
export async function checkHealth(
	probes: Record<string, HealthProbe>,
	deadlineMs = PROBE_DEADLINE_MS,
): Promise<HealthReport> {
	const checks = await Promise.all(Object.entries(probes).map(([name, probe]) => runProbe(name, probe, deadlineMs)));
	return { ready: checks.every((check) => check.ok), checks };
}
