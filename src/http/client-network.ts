import ipaddr from 'ipaddr.js';

/**
 * What per-client limits count by: an IPv4 address, or the /64 network of an IPv6 address (a
 * subscriber is given a whole /64, so its single addresses are free to rotate). Pass
 * `request.ip`, which takes X-Forwarded-For into account only with STORELENS_TRUST_PROXY=1.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const network = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}
