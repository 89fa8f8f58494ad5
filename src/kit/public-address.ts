/**
 * Outbound calls to addresses someone else chose (workflow webhooks, the AI-visibility assistant)
 * must go to the public internet: neither may become a way to reach the server's own network. The
 * host is resolved once, every address it resolves to is checked, and the connection goes to a
 * checked address (no second lookup that could answer differently). `STORELENS_WEBHOOK_ALLOW_PRIVATE=1`
 * and `STORELENS_LLM_ALLOW_PRIVATE=1` lift the check (a receiver on the same network).
 *
 * Only what ipaddr.js classifies as `unicast` is public: every special-purpose range it knows
 * (private, loopback, link-local, carrier-grade NAT, documentation, benchmarking, 6to4, Teredo,
 * multicast, reserved, ...) is refused. An address that carries an IPv4 address (IPv4-mapped
 * `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is judged by the IPv4 address it reaches; the
 * deprecated IPv4-compatible range `::/96`, which ipaddr.js counts as unicast, is refused.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** RFC 4291's deprecated IPv4-compatible addresses: no range of ipaddr.js's, so named here. */
const ipv4Compatible = new net.BlockList();
ipv4Compatible.addSubnet('::', 96, 'ipv6');

/** The well-known NAT64 prefix (RFC 6052): its last 32 bits are the IPv4 address reached. */
const NAT64 = ipaddr.IPv6.parse('64:ff9b::');

/** The IPv4 address an IPv6 address stands for, when it is one of the two forms that carry one. */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64, 96)) return ipaddr.IPv4.parse(address.parts.slice(6).flatMap((part) => [part >> 8, part & 0xff]).join('.'));
  return null;
}

export function isPublicAddress(address: string): boolean {
  if (net.isIP(address) === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  if (ipv4Compatible.check(address, 'ipv6')) return false;
  const v4 = carriedIpv4(parsed as ipaddr.IPv6);
  return (v4 ?? parsed).range() === 'unicast';
}

export class PrivateAddress extends Error {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that resolves every address of the host and refuses the
 * connection when any of them is not public (unless private ones are allowed).
 */
export function checkedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(new PrivateAddress(`${hostname} resolves to ${refused.address}, which is not a public address`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The host of `url` is an IP literal: no lookup happens, so it is checked here; the refusal, or null. */
export function literalRefusal(url: URL, allowPrivate: boolean): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || net.isIP(host) === 0 || isPublicAddress(host)) return null;
  return `${host} is not a public address`;
}
