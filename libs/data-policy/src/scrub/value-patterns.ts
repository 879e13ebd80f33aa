import { isIPv6 } from 'node:net';
import { replaceCards, type Tick } from './credit-cards.ts';

// The built-in value patterns an operator's rule can name (docs/data.md#rules). Each finds
// its matches in linear time: a lookbehind makes a match start only where a run of its
// characters starts, and the candidates of IPv6 are bounded in length and confirmed by
// node:net. Operators' own regexes run on RE2 (rules.ts). The request's budget is told of the
// characters each reads (`tick`, which may throw to stop it): the scan, and each match.

export type Replace = (match: string) => string;
export type ValuePattern = (s: string, replace: Replace, tick: Tick) => string;

const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = new RegExp(`(?<![0-9.])${OCTET}(?:\\.${OCTET}){3}(?![0-9]|\\.[0-9])`, 'g');
const IPV6_CANDIDATE = /(?<![0-9A-Za-z:.])[0-9A-Fa-f:.]{2,45}(?![0-9A-Za-z:.])/g;

/** Each match told to the budget (a text of many short matches costs per match). */
const counted = (r: Replace, tick: Tick) => (m: string) => {
  tick(m.length);
  return r(m);
};
const email: ValuePattern = (s, r, tick) => (s.includes('@') ? s.replace(EMAIL, counted(r, tick)) : s);
const ipv4: ValuePattern = (s, r, tick) => (s.includes('.') ? s.replace(IPV4, counted(r, tick)) : s);
const ipv6: ValuePattern = (s, r, tick) =>
  s.includes(':')
    ? s.replace(IPV6_CANDIDATE, (m) => {
        tick(m.length);
        return m.includes(':') && isIPv6(m) ? r(m) : m;
      })
    : s;

export const VALUE_PATTERNS = {
  email,
  ipv4,
  ipv6,
  ip: (s, r, tick) => ipv6(ipv4(s, r, tick), r, tick),
  creditcard: (s, r, tick) => replaceCards(s, r, tick),
} satisfies Record<string, ValuePattern>;

export type ValuePatternName = keyof typeof VALUE_PATTERNS;
