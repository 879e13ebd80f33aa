import { isIPv6 } from 'node:net';
import { replaceCards } from './credit-cards.ts';

// The built-in value patterns an operator's rule can name (docs/data.md#rules). Each finds
// its matches in linear time: a lookbehind makes a match start only where a run of its
// characters starts, and the candidates of IPv6 are bounded in length and confirmed by
// node:net. Operators' own regexes run on RE2 (rules.ts).

export type Replace = (match: string) => string;
export type ValuePattern = (s: string, replace: Replace) => string;

const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = new RegExp(`(?<![0-9.])${OCTET}(?:\\.${OCTET}){3}(?![0-9]|\\.[0-9])`, 'g');
const IPV6_CANDIDATE = /(?<![0-9A-Za-z:.])[0-9A-Fa-f:.]{2,45}(?![0-9A-Za-z:.])/g;

const email: ValuePattern = (s, r) => (s.includes('@') ? s.replace(EMAIL, r) : s);
const ipv4: ValuePattern = (s, r) => (s.includes('.') ? s.replace(IPV4, r) : s);
const ipv6: ValuePattern = (s, r) => (s.includes(':') ? s.replace(IPV6_CANDIDATE, (m) => (m.includes(':') && isIPv6(m) ? r(m) : m)) : s);

export const VALUE_PATTERNS = {
  email,
  ipv4,
  ipv6,
  ip: (s, r) => ipv6(ipv4(s, r), r),
  creditcard: (s, r) => replaceCards(s, r),
} satisfies Record<string, ValuePattern>;

export type ValuePatternName = keyof typeof VALUE_PATTERNS;
