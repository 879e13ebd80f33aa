import ipaddr from 'ipaddr.js';

// Where a login comes from, as a login remembers it: an IPv4 address as it is, an IPv6 address
// as its /64 (a host's privacy addresses change within it; an IPv4-mapped address is its IPv4
// address). Stored only hashed, as a trusted device's token is (docs/security.md#logins).

export function placeOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const a = ipaddr.process(ip);
  if (a.kind() === 'ipv4') return a.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${a.toNormalizedString()}/64`).toString()}/64`;
}

/** The login_devices token that stands for "this user logged in from this place". */
export const placeToken = (username: string, ip: string) => `place:${username}|${placeOf(ip)}`;
