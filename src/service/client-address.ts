import { isIPv4, isIPv6 } from 'node:net';

// A host owns a whole IPv6 prefix; keying by the full address would give it billions of fresh buckets.
const IPV6_PREFIX_GROUPS = 3.5; // 56 bits: three groups and the high byte of the fourth

function ipv6Groups(address: string): number[] | null {
	const [head = '', tail] = address.split('::');
	const parse = (part: string) => {
		if (part === '') return [];
		const groups: number[] = [];
		for (const piece of part.split(':')) {
			// An embedded IPv4 address fills the last two groups; only the prefix matters, so its value does not.
			if (piece.includes('.')) groups.push(0, 0);
			else groups.push(Number.parseInt(piece, 16));
		}
		return groups;
	};
	const front = parse(head);
	if (tail === undefined) return front.length === 8 ? front : null;
	const back = parse(tail);
	return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The bucket a client address is counted in: an IPv4 address (also when it arrives IPv4-mapped as
 * `::ffff:a.b.c.d` on a dual-stack listener), or the /56 prefix of an IPv6 address. Null when the
 * socket no longer knows its peer: such a request is not counted, rather than counted with everyone else's.
 */
export function clientAddressKey(remoteAddress: string | undefined): string | null {
	if (!remoteAddress) return null;
	const address = remoteAddress.split('%', 1)[0] ?? '';
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
	if (mapped && isIPv4(mapped)) return mapped;
	if (isIPv4(address)) return address;
	if (!isIPv6(address)) return null;
	const groups = ipv6Groups(address.toLowerCase());
	if (!groups || groups.length !== 8 || groups.some((g) => !Number.isInteger(g))) return null;
	const whole = Math.floor(IPV6_PREFIX_GROUPS);
	const prefix = [...groups.slice(0, whole), (groups[whole] ?? 0) & 0xff00].map((g) => g.toString(16));
	return `${prefix.join(':')}::/56`;
}
