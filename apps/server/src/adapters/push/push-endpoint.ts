import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIPv4, isIPv6, type LookupFunction } from 'node:net';

/** An address a host name resolved to, as `dns.lookup` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (the system resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface EndpointPolicy {
  /** Also allow loopback endpoints (http or https): a local test push service only. */
  allowLoopback: boolean;
  resolve: Resolver;
}

/** Endpoint refused by policy (the client's mistake, or a host that now points inside). */
export type EndpointCheck =
  { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; permanent: boolean; message: string };

export const ENDPOINT_MESSAGES = {
  https: 'Push subscription endpoints must use https.',
  ipLiteral: 'Push subscription endpoints must name the push service by host name, not by IP address.',
  credentials: 'Push subscription endpoints cannot contain a user name or password.',
  notPublic: 'Push subscription endpoints must be on the public internet; this host has a private or reserved address.',
  unresolved: 'The push subscription endpoint’s host name could not be resolved.',
} as const;

/** IPv4 ranges that are not globally reachable unicast (IANA special-purpose registry, multicast, reserved). */
const V4_NOT_PUBLIC: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
/** IPv6: only global unicast (2000::/3) may be public, minus these special blocks. */
const V6_NOT_PUBLIC: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID…)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['3fff::', 20], // documentation
];

const v4NotPublic = new BlockList();
for (const [network, prefix] of V4_NOT_PUBLIC) v4NotPublic.addSubnet(network, prefix, 'ipv4');
const v6GlobalUnicast = new BlockList();
v6GlobalUnicast.addSubnet('2000::', 3, 'ipv6');
const v6NotPublic = new BlockList();
for (const [network, prefix] of V6_NOT_PUBLIC) v6NotPublic.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (with or without an embedded dotted IPv4 tail). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address carried in the low 32 bits of IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) addresses. */
function embeddedIPv4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const mapped = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (!mapped && !nat64) return undefined;
  return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
}

/** Whether an IP address is globally reachable unicast: not loopback, private, link-local, CGNAT, multicast… */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !v4NotPublic.check(address, 'ipv4');
  if (!isIPv6(address)) return false;
  const v4 = embeddedIPv4(ipv6Groups(address));
  if (v4) return isPublicAddress(v4);
  return v6GlobalUnicast.check(address, 'ipv6') && !v6NotPublic.check(address, 'ipv6');
}

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  if (isIPv4(address)) return address.startsWith('127.');
  if (!isIPv6(address)) return false;
  const groups = ipv6Groups(address);
  const v4 = embeddedIPv4(groups);
  if (v4) return isLoopbackAddress(v4);
  return groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
}

/**
 * Decides whether the server may send to a push endpoint, and where: https
 * only, a host name (not an IP literal) whose every address is public. The
 * WHATWG URL parser has already turned decimal, octal and hex IPv4 forms and
 * IPv6 spellings into canonical IP literals, so they are refused as such.
 * With `allowLoopback`, loopback endpoints (http or https) are allowed too.
 * The caller connects to the returned addresses only (see `pinnedLookup`), so
 * the address checked is the address used, whatever DNS answers next.
 */
export async function checkPushEndpoint(endpoint: string, policy: EndpointPolicy): Promise<EndpointCheck> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, permanent: true, message: ENDPOINT_MESSAGES.https };
  }
  const refuse = (message: string, permanent = true): EndpointCheck => ({ ok: false, permanent, message });
  if (url.protocol !== 'https:' && !(policy.allowLoopback && url.protocol === 'http:')) {
    return refuse(ENDPOINT_MESSAGES.https);
  }
  if (url.username || url.password) return refuse(ENDPOINT_MESSAGES.credentials);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const local = policy.allowLoopback;
  if (isIPv4(host) || isIPv6(host)) {
    if (!local || !isLoopbackAddress(host)) return refuse(ENDPOINT_MESSAGES.ipLiteral);
    return { ok: true, url, addresses: [{ address: host, family: isIPv4(host) ? 4 : 6 }] };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    return refuse(ENDPOINT_MESSAGES.unresolved, false);
  }
  if (addresses.length === 0) return refuse(ENDPOINT_MESSAGES.unresolved, false);
  if (local && addresses.every((a) => isLoopbackAddress(a.address))) return { ok: true, url, addresses };
  if (url.protocol !== 'https:') return refuse(ENDPOINT_MESSAGES.https);
  if (!addresses.every((a) => isPublicAddress(a.address))) return refuse(ENDPOINT_MESSAGES.notPublic);
  return { ok: true, url, addresses };
}

/**
 * A `lookup` for http(s).request that answers with addresses already checked
 * instead of asking DNS again: the connection goes to a checked address while
 * the Host header and TLS server name (SNI, certificate check) stay the host name.
 */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const usable = addresses.filter((a) => family === 0 || a.family === family);
    const [first] = usable;
    if (!first) {
      callback(Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' }), '');
    } else if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}
