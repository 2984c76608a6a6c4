// Server-side request forgery guard: a URL a member typed must never reach the host's own services (Redis,
// PostgreSQL, metrics, cloud metadata). Every address a name resolves to is checked, and the caller connects to
// the addresses checked here, never to a second lookup (DNS rebinding).
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Why an address is refused; each has its words in the catalogues (`webhook.refused.<reason>`). */
export const ADDRESS_REFUSALS = [
	'loopback',
	'private',
	'linkLocal',
	'shared',
	'benchmarking',
	'thisNetwork',
	'multicast',
	'unspecified',
	'reserved',
] as const;
export type AddressRefusal = (typeof ADDRESS_REFUSALS)[number];

/** Why a URL is refused before any request: its form, its scheme, or one of its addresses. */
export type UrlRefusal = 'invalidUrl' | 'httpNotAllowed' | 'unresolved' | AddressRefusal;

export class WebhookUrlRefusedError extends Error {
	constructor(readonly reason: UrlRefusal) {
		super(`webhook address refused: ${reason}`);
		this.name = 'WebhookUrlRefusedError';
	}
}

/** WEBHOOK_ALLOW_HOSTS read: host names (lower case) and address ranges an in-house receiver may use. */
export interface AllowList {
	hosts: ReadonlySet<string>;
	ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

export const EMPTY_ALLOW_LIST: AllowList = { hosts: new Set(), ranges: [] };

/** Parses `host,10.0.0.0/8,n8n.internal`; throws with the entry that is neither a host nor a CIDR. */
export function parseAllowList(text: string | undefined): AllowList {
	const hosts = new Set<string>();
	const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
	for (const raw of (text ?? '').split(',')) {
		const entry = raw.trim().toLowerCase();
		if (entry === '') continue;
		if (entry.includes('/')) {
			try {
				ranges.push(ipaddr.parseCIDR(entry));
			} catch {
				throw new Error(`not a host or CIDR: ${entry}`);
			}
			continue;
		}
		if (!/^[a-z0-9.:_-]+$/.test(entry)) throw new Error(`not a host or CIDR: ${entry}`);
		hosts.add(ipaddr.isValid(entry) ? ipaddr.process(entry).toString() : entry);
	}
	return { hosts, ranges };
}

const BENCHMARKING = ipaddr.parseCIDR('198.18.0.0/15');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4, the old compatible form), or null. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
	const bytes = address.toByteArray();
	const range = address.range();
	if (range === 'ipv4Mapped' || range === 'rfc6052' || range === 'rfc6145') {
		return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
	}
	if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
	if (address.match(IPV4_COMPATIBLE)) return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
	return null;
}

function ipv4Refusal(address: ipaddr.IPv4): AddressRefusal | null {
	if (address.match(BENCHMARKING)) return 'benchmarking';
	const range = address.range();
	switch (range) {
		case 'unicast':
			return null;
		case 'loopback':
		case 'private':
		case 'linkLocal':
		case 'multicast':
			return range;
		case 'carrierGradeNat':
			return 'shared';
		case 'unspecified':
			// 0.0.0.0/8: "this network"; 0.0.0.0 itself is the unspecified address.
			return address.toString() === '0.0.0.0' ? 'unspecified' : 'thisNetwork';
		default:
			return 'reserved';
	}
}

/** Why `text` (an IPv4 or IPv6 address) may not be connected to, or null for a public address. */
export function addressRefusal(text: string): AddressRefusal | null {
	if (!ipaddr.isValid(text)) return 'reserved';
	const address = ipaddr.parse(text);
	if (address.kind() === 'ipv4') return ipv4Refusal(address as ipaddr.IPv4);
	const v6 = address as ipaddr.IPv6;
	if (v6.toNormalizedString() === '0:0:0:0:0:0:0:0') return 'unspecified';
	if (v6.toNormalizedString() === '0:0:0:0:0:0:0:1') return 'loopback';
	// Mapped, NAT64 and 6to4 forms reach the IPv4 address they carry: they pass or fail on its merits.
	const inner = embeddedIpv4(v6);
	if (inner) return ipv4Refusal(inner);
	const range = v6.range();
	switch (range) {
		case 'unicast':
			return null;
		case 'loopback':
		case 'linkLocal':
		case 'multicast':
			return range;
		case 'uniqueLocal':
			return 'private';
		default:
			return 'reserved';
	}
}

function inAllowedRange(allow: AllowList, text: string): boolean {
	const address = ipaddr.process(text);
	return allow.ranges.some(([base, bits]) => address.kind() === base.kind() && address.match(base, bits));
}

/** A resolved address, as connect's lookup hands it back. */
export interface CheckedAddress {
	address: string;
	family: 4 | 6;
}

export interface CheckedUrl {
	url: URL;
	/** Host name without brackets, lower case. */
	host: string;
	/** Every address the host resolved to, each checked; connect to these only. */
	addresses: CheckedAddress[];
}

export type Resolve = (host: string) => Promise<CheckedAddress[]>;

/** The system resolver, every address of both families. */
export const systemResolve: Resolve = async (host) =>
	(await dnsLookup(host, { all: true, verbatim: true })).map(({ address, family }) => ({
		address,
		family: family === 6 ? 6 : 4,
	}));

/** Parses a typed URL: https (or http for an allowed host), no credentials; throws WebhookUrlRefusedError. */
export function parseWebhookUrl(text: string): URL {
	let url: URL;
	try {
		url = new URL(text.trim());
	} catch {
		throw new WebhookUrlRefusedError('invalidUrl');
	}
	if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') {
		throw new WebhookUrlRefusedError('invalidUrl');
	}
	return url;
}

const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Resolves the URL's host and checks every address it has; throws WebhookUrlRefusedError with the first reason.
 * A host named in WEBHOOK_ALLOW_HOSTS, or one whose every address is in an allowed range, may use any address
 * and http://.
 */
export async function checkWebhookUrl(text: string, allow: AllowList, resolve: Resolve): Promise<CheckedUrl> {
	const url = parseWebhookUrl(text);
	const host = hostOf(url);
	const literal = ipaddr.isValid(host);
	let addresses: CheckedAddress[];
	if (literal) {
		addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
	} else {
		addresses = await resolve(host).catch(() => []);
		if (addresses.length === 0) throw new WebhookUrlRefusedError('unresolved');
	}
	const byName = allow.hosts.has(literal ? ipaddr.process(host).toString() : host);
	const byRange = addresses.every(({ address }) => inAllowedRange(allow, address));
	if (!byName && !byRange) {
		for (const { address } of addresses) {
			const refusal = addressRefusal(address);
			if (refusal) throw new WebhookUrlRefusedError(refusal);
		}
		if (url.protocol !== 'https:') throw new WebhookUrlRefusedError('httpNotAllowed');
	}
	return { url, host, addresses };
}

/** What a list shows of a URL: its host and the last 4 characters, never the path's secret. */
export function urlHint(text: string): string {
	let host = '?';
	try {
		host = new URL(text).host;
	} catch {
		// An unparsable URL is never stored; the hint of one still names nothing secret.
	}
	return `${host} …${text.slice(-4)}`;
}
