import type { SearchMap } from '../src/search/fields.ts';
import { asciiLower, jsonInner, metadataPaths, orderedFrom } from '../src/search/sql.ts';
import type { Comparison, SearchNode } from '../src/search/syntax.ts';

// The search syntax as docs/dashboard.md states it, read in plain JavaScript over one row of a
// kind's table as its map (fields.ts) lays it out: for the property tests that hold the one
// compiler (search/sql.ts) to it, once per kind's map. A row holds each column's value; a JSON
// column holds the value whose JSON.stringify text is stored.

export type ReferenceRow = Record<string, unknown>;

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `*` matches any run of characters (newlines too) when `wildcard`; otherwise every character is itself. */
export function pattern(needle: string, wildcard: boolean, anchored: boolean): RegExp {
  const body = wildcard ? needle.split('*').map(escapeRegex).join('.*') : escapeRegex(needle);
  return new RegExp(anchored ? `^${body}$` : body, 'su');
}
export const contains = (hay: string, needle: string, wildcard: boolean) => pattern(asciiLower(needle), wildcard, false).test(asciiLower(hay));

export function at(json: unknown, path: readonly string[]): unknown {
  let v = json;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

export const compare = (a: number, op: Comparison, b: number) => ({ '>': a > b, '>=': a >= b, '<': a < b, '<=': a <= b })[op];

export function keyMatches(v: unknown, n: Extract<SearchNode, { type: 'field' }>): boolean {
  if (v === undefined) return false;
  if (n.op === 'exists') return true;
  if (n.op !== '=') return typeof v === 'number' && compare(v, n.op, Number(n.value));
  if (n.wildcard) return (typeof v === 'string' && pattern(n.value, true, true).test(v)) || (Number.isInteger(v) && pattern(n.value, true, true).test(String(v)));
  if (typeof v === 'string') return v === n.value;
  if (typeof v === 'number') return NUMBER.test(n.value) && Number(n.value) === v;
  if (typeof v === 'boolean') return n.value === String(v);
  return v === null && n.value === 'null';
}

/** Whether `row` matches `node` as the kind's map reads it. */
export function matches(node: SearchNode, map: SearchMap, row: ReferenceRow): boolean {
  const textOf = (c: { column: string; json: boolean }) => (c.json ? JSON.stringify(row[c.column]) : String(row[c.column]));
  const words = (columns: readonly { column: string; json: boolean }[], value: string, wildcard: boolean) =>
    columns.some((c) => contains(textOf(c), c.json ? jsonInner(value) : value, wildcard));
  switch (node.type) {
    case 'and':
      return node.children.every((c) => matches(c, map, row));
    case 'or':
      return node.children.some((c) => matches(c, map, row));
    case 'not':
      return !matches(node.child, map, row);
    case 'text':
      return words(map.words, node.value, node.wildcard);
    case 'field': {
      const keyed = Object.values(map.keyed).find((k) => k.name === node.field);
      if (keyed && node.key !== undefined) return metadataPaths(node.key).some((p) => keyMatches(at(row[keyed.column], [...keyed.root, ...p]), node));
      const def = map.fields[node.field];
      switch (def.match) {
        case 'key':
          return matches({ ...node, field: def.keyed, key: node.field }, map, row);
        case 'absent':
          throw new Error(`the parser refuses ${node.field}`);
        case 'text':
          return node.op === 'exists' ? def.columns.some((c) => textOf(c) !== '') : words(def.columns, node.value, node.wildcard);
        case 'ordered':
          return node.op === '=' ? row[def.column] === node.value : orderedFrom(def.values, node.value, node.op as Comparison).includes(String(row[def.column]));
        case 'duration':
          return node.op === '=' ? row[def.column] === Number(node.value) : compare(Number(row[def.column]), node.op as Comparison, Number(node.value));
        default: {
          const value = String(row[def.column]);
          if (node.op === 'exists') return value !== '';
          return node.wildcard ? pattern(node.value, true, true).test(value) : value === node.value;
        }
      }
    }
  }
}
