/**
 * Webhook targets (docs/workflows.md, "Webhooks") and the AI-visibility assistant (docs/families.md)
 * must be public: neither may become a way to reach the server's own network. The host is resolved
 * once, every address it resolves to is checked, and the connection goes to a checked address (no
 * second lookup that could answer differently). `STORELENS_WEBHOOK_ALLOW_PRIVATE=1` and
 * `STORELENS_LLM_ALLOW_PRIVATE=1` lift the check (a receiver on the same network).
 */
import dns from 'node:dns';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) blocked.addSubnet(address, prefix, 'ipv6');

/** IPv4 written inside IPv6 (`::ffff:127.0.0.1`) is checked as the IPv4 address it carries. */
function embeddedIpv4(address: string): string | null {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : null;
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const v4 = family === 4 ? address : embeddedIpv4(address);
  if (v4) return !blocked.check(v4, 'ipv4');
  return !blocked.check(address, 'ipv6');
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
