import { exactNumber } from './check.ts';
import type { KeyedField, SearchMap, TextColumn } from './fields.ts';
import { ownEntry } from './own-entry.ts';
import type { Comparison, FieldOp, SearchNode } from './tree.ts';

// A parsed search (syntax.ts) as a WHERE condition over a kind's table, as its map (fields.ts)
// lays the fields out. Every value the user typed becomes a query parameter ({name:Type}); the
// SQL text is made only of the map's column names and the functions below, so no input can
// change what the query does.
//
// Text is matched as `lower(column) LIKE pattern` (ClickHouse's lower is ASCII-only, so the
// pattern is lowered the same way): the form the logs table's n-gram and token bloom filter
// indexes on lower(message) and lower(metadata) can answer (log/index.ts). A JSON column is
// the text JSON.stringify wrote; a key is looked up by JSONType first, so the answer does not
// depend on how a ClickHouse version extracts a value of another type.

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const NUMERIC_TYPES = "('Int64', 'UInt64', 'Double')";

/** ClickHouse's lower(): ASCII letters only. */
export const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
/** A string as it sits inside JSON.stringify's quotes. */
export const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);
/** A LIKE pattern matching `value` literally, or with each `*` matching anything when `wildcard`. */
export function likePattern(value: string, wildcard: boolean): string {
  const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
  return wildcard ? escaped.replace(/\*/g, '%') : escaped;
}
const contains = (value: string, wildcard: boolean) => `%${likePattern(asciiLower(value), wildcard)}%`;

/** A key with dots is that key, or the nested path it spells: `a.b` is {"a.b":…} or {"a":{"b":…}}. */
export const metadataPaths = (key: string): string[][] => (key.includes('.') ? [[key], key.split('.')] : [[key]]);

/** The values of an ordered field a comparison admits (a log's levels: debug < info < warn < error). */
export function orderedFrom(values: readonly string[], value: string, op: Comparison): string[] {
  const i = values.indexOf(value);
  const keep = { '>': (j: number) => j > i, '>=': (j: number) => j >= i, '<': (j: number) => j < i, '<=': (j: number) => j <= i }[op];
  return values.filter((_, j) => keep(j));
}

export interface SearchSql {
  /** The condition, to AND into a WHERE clause. */
  where: string;
  params: Record<string, unknown>;
}

const keyedByName = new WeakMap<SearchMap, Record<string, KeyedField>>();
const keyedOf = (map: SearchMap, name: string) => {
  let byName = keyedByName.get(map);
  if (!byName) keyedByName.set(map, (byName = Object.fromEntries(Object.values(map.keyed).map((k) => [k.name, k]))));
  return ownEntry(byName, name);
};

/** The condition of a parsed search over the table `map` describes; parameter names start with `prefix` and a number. */
export function searchSql(node: SearchNode, map: SearchMap, prefix = 'sq'): SearchSql {
  const params: Record<string, unknown> = {};
  const param = (value: unknown, type: string) => {
    const name = `${prefix}${Object.keys(params).length}`;
    params[name] = value;
    return `{${name}:${type}}`;
  };
  const like = (column: string, pattern: string) => `lower(${column}) LIKE ${param(pattern, 'String')}`;
  const anyOf = (parts: string[]) => (parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`);
  const words = (columns: readonly TextColumn[], value: string, wildcard: boolean) =>
    anyOf(columns.map((c) => like(c.column, contains(c.json ? jsonInner(value) : value, wildcard))));

  const keyed = (k: KeyedField, key: string, op: FieldOp, value: string, wildcard: boolean) => {
    const json = k.column;
    const one = (path: string[]) => {
      const at = [...k.root, ...path].map((p) => param(p, 'String')).join(', ');
      const type = `JSONType(${json}, ${at})`;
      if (op === 'exists') return `JSONHas(${json}, ${at})`;
      if (op !== '=') return `(${type} IN ${NUMERIC_TYPES} AND JSONExtractFloat(${json}, ${at}) ${op} ${param(Number(value), 'Float64')})`;
      if (wildcard) {
        const p = param(likePattern(value, true), 'String');
        return `((${type} = 'String' AND JSONExtractString(${json}, ${at}) LIKE ${p}) OR (${type} IN ('Int64', 'UInt64') AND JSONExtractRaw(${json}, ${at}) LIKE ${p}))`;
      }
      // A string is compared decoded; the pre-check on the text (the value as JSON.stringify
      // wrote it, quotes included) is implied by it and lets the skip indexes drop granules.
      const branches = [
        `(${type} = 'String' AND ${like(json, `%${likePattern(asciiLower(JSON.stringify(value)), false)}%`)} AND JSONExtractString(${json}, ${at}) = ${param(value, 'String')})`,
      ];
      if (NUMBER.test(value) && Number.isFinite(Number(value)))
        branches.push(
          exactNumber(value)
            ? `(${type} IN ${NUMERIC_TYPES} AND JSONExtractFloat(${json}, ${at}) = ${param(Number(value), 'Float64')})`
            : // Past 2^53 a float is not exact: the number as written, digit for digit.
              `(${type} IN ('Int64', 'UInt64') AND JSONExtractRaw(${json}, ${at}) = ${param(value, 'String')})`,
        );
      if (value === 'true' || value === 'false') branches.push(`(${type} = 'Bool' AND JSONExtractBool(${json}, ${at}) = ${param(value === 'true' ? 1 : 0, 'UInt8')})`);
      if (value === 'null') branches.push(`${type} = 'Null'`);
      return anyOf(branches);
    };
    return anyOf(metadataPaths(key).map(one));
  };

  const field = (n: Extract<SearchNode, { type: 'field' }>): string => {
    const k = n.key === undefined ? undefined : keyedOf(map, n.field);
    if (k) return keyed(k, n.key!, n.op, n.value, n.wildcard);
    const def = ownEntry(map.fields, n.field);
    if (!def) throw new RangeError(`the ${map.noun} search has no field ${n.field}`);
    switch (def.match) {
      case 'key':
        return field({ ...n, field: def.keyed, key: n.field });
      case 'absent':
        throw new RangeError(`${map.noun}s cannot be searched by ${n.field}`);
      case 'text':
        return n.op === 'exists' ? anyOf(def.columns.map((c) => `notEmpty(${c.column})`)) : words(def.columns, n.value, n.wildcard);
      case 'ordered':
        return n.op === '='
          ? `${def.column} = ${param(n.value, 'String')}`
          : `${def.column} IN ${param(orderedFrom(def.values, n.value, n.op as Comparison), 'Array(String)')}`;
      case 'duration':
        return `${def.column} ${n.op} ${param(Number(n.value), 'Float64')}`;
      default:
        if (n.op === 'exists') return `notEmpty(${def.column})`;
        return n.wildcard ? `${def.column} LIKE ${param(likePattern(n.value, true), 'String')}` : `${def.column} = ${param(n.value, 'String')}`;
    }
  };

  const walk = (n: SearchNode): string => {
    switch (n.type) {
      case 'and':
      case 'or':
        return `(${n.children.map(walk).join(n.type === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `NOT ${walk(n.child)}`;
      case 'text':
        return words(map.words, n.value, n.wildcard);
      case 'field':
        return field(n);
    }
  };
  return { where: walk(node), params };
}
