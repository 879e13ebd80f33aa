import { asciiLower, jsonInner, levelsFrom, metadataPaths } from '../src/log/search/sql.ts';
import type { Comparison, SearchNode } from '../src/log/search/syntax.ts';

// The search syntax as docs/dashboard.md states it, read in plain JavaScript over a log,
// for the property test that holds the SQL (search/sql.ts) to it.

export interface ReferenceLog {
  level: string;
  message: string;
  metadata: Record<string, unknown>;
  service: string;
  environment: string;
  release: string;
  context: string;
  trace_id: string;
  span_id: string;
  request_id: string;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `*` matches any run of characters (newlines too) when `wildcard`; otherwise every character is itself. */
export function pattern(needle: string, wildcard: boolean, anchored: boolean): RegExp {
  const body = wildcard ? needle.split('*').map(escapeRegex).join('.*') : escapeRegex(needle);
  return new RegExp(anchored ? `^${body}$` : body, 'su');
}
export const contains = (hay: string, needle: string, wildcard: boolean) => pattern(asciiLower(needle), wildcard, false).test(asciiLower(hay));

export function at(metadata: unknown, path: string[]): unknown {
  let v = metadata;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

export const compare = (a: number, op: Comparison, b: number) => ({ '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b })[op];

export function metadataMatches(v: unknown, n: Extract<SearchNode, { type: 'field' }>): boolean {
  if (v === undefined) return false;
  if (n.op === 'exists') return true;
  if (n.op !== '=') return typeof v === 'number' && compare(v, n.op, Number(n.value));
  if (n.wildcard) return (typeof v === 'string' && pattern(n.value, true, true).test(v)) || (Number.isInteger(v) && pattern(n.value, true, true).test(String(v)));
  if (typeof v === 'string') return v === n.value;
  if (typeof v === 'number') return NUMBER.test(n.value) && Number(n.value) === v;
  if (typeof v === 'boolean') return n.value === String(v);
  return v === null && n.value === 'null';
}

export function matches(node: SearchNode, log: ReferenceLog): boolean {
  switch (node.type) {
    case 'and':
      return node.children.every((c) => matches(c, log));
    case 'or':
      return node.children.some((c) => matches(c, log));
    case 'not':
      return !matches(node.child, log);
    case 'text':
      return contains(log.message, node.value, node.wildcard) || contains(JSON.stringify(log.metadata), jsonInner(node.value), node.wildcard);
    case 'field': {
      if (node.field === 'metadata') return metadataPaths(node.key!).some((p) => metadataMatches(at(log.metadata, p), node));
      if (node.field === 'level') return node.op === '=' ? log.level === node.value : levelsFrom(node.value, node.op as Comparison).includes(log.level);
      const value = log[node.field as Exclude<keyof ReferenceLog, 'metadata'>];
      if (node.op === 'exists') return value !== '';
      if (node.field === 'message') return contains(value, node.value, node.wildcard);
      return node.wildcard ? pattern(node.value, true, true).test(value) : value === node.value;
    }
  }
}
