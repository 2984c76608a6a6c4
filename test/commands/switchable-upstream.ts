// A stats endpoint whose behaviour the test switches between calls: any scenario of the client's
// fault server, so the bot meets each failure after the member linked while all was well.
import { createServer, type ServerResponse } from 'node:http';
import { listenOnLoopback, SCENARIOS, validBody } from '../stats-api/fault-server.js';

export interface SwitchableUpstream {
	url: string;
	/** A scenario name from the fault server ('ok', '401', '429', 'reset', 'slow-headers', …). */
	scenario: string;
	requests: number;
	close(): Promise<void>;
}

export async function startSwitchableUpstream(initial = 'ok'): Promise<SwitchableUpstream> {
	const state = { scenario: initial, requests: 0 };
	const server = createServer((req, res) => {
		state.requests += 1;
		const handler = state.scenario === 'ok' ? okHandler : SCENARIOS[state.scenario];
		if (!handler) throw new Error(`unknown scenario ${state.scenario}`);
		handler(req, res, state.requests);
	});
	const { url, close } = await listenOnLoopback(server);
	return {
		url,
		get scenario() {
			return state.scenario;
		},
		set scenario(name: string) {
			state.scenario = name;
		},
		get requests() {
			return state.requests;
		},
		close,
	};
}

function okHandler(_req: unknown, res: ServerResponse): void {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(JSON.stringify(validBody()));
}
