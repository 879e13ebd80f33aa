import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Addresses a webhook must not reach unless the operator allows it
// (ALERT_WEBHOOK_PRIVATE_ADDRESSES=allow, docs/alerts.md "Webhook targets and SSRF"). The ranges
// are ipaddr.js's table of special-purpose ranges (IANA's registries), not a list of our own:
// an IPv4 address is public only if it is in none of them; an IPv6 address only if it is in
// none of them and in global unicast space (2000::/3), so `::7f00:1` (IPv4-compatible), 6to4,
// Teredo and local-use NAT64 are refused. Two forms that carry an IPv4 address in a defined
// place are judged as that address: IPv4-mapped (`::ffff:a.b.c.d`, dotted or hex) and the
// well-known NAT64 prefix (`64:ff9b::/96`, what DNS64 hands an IPv6-only host for a public name).

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

function publicV4(a: ipaddr.IPv4): boolean {
  return a.range() === 'unicast';
}

function publicV6(a: ipaddr.IPv6): boolean {
  if (a.match(NAT64_WELL_KNOWN)) return publicV4(ipaddr.fromByteArray(a.toByteArray().slice(12)) as ipaddr.IPv4);
  return a.range() === 'unicast' && a.match(GLOBAL_UNICAST);
}

/** True for any address that is not plainly public (private, loopback, link-local, reserved, ...), and for what is not an address. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 0) return true; // ipaddr.js also reads old forms such as 1.2.3; a lookup or a URL never gives them
  const a = ipaddr.process(address); // an IPv4-mapped IPv6 address becomes its IPv4 address
  return a.kind() === 'ipv4' ? !publicV4(a as ipaddr.IPv4) : !publicV6(a as ipaddr.IPv6);
}
