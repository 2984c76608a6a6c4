import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts listening and resolves to the server's `http://host:port` (an IPv6 address in brackets). */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	return `http://${shown}:${address.port}`;
}
