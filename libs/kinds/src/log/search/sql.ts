import { logLevels } from '../event.ts';
import { exactNumber, type Comparison, type FieldOp, type SearchNode } from './syntax.ts';
import { ownEntry } from './own-entry.ts';

// A parsed search (syntax.ts) as a WHERE condition over a kind's table (the logs', the spans'
// with span/search-dialect.ts). Every value the
// user typed becomes a query parameter ({name:Type}); the SQL text is made only of the
// column and function names below, so no input can change what the query does.
//
// Text is matched as `lower(column) LIKE pattern` (ClickHouse's lower is ASCII-only, so
// the pattern is lowered the same way): the form the logs table's n-gram and token bloom
// filter indexes on lower(message) and lower(metadata) can answer (log/index.ts).
// Metadata is the JSON text JSON.stringify wrote; a key is looked up by JSONType first, so
// the answer does not depend on how a ClickHouse version extracts a value of another type.

const LEVELS = logLevels as readonly string[];
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

export interface SearchSql {
  /** The condition, to AND into a WHERE clause. */
  where: string;
  params: Record<string, unknown>;
}

/** How a kind's table answers its search dialect (syntax.ts). */
export interface SearchColumns {
  /** The column a word is looked for in, beside the metadata's JSON text. */
  text: string;
  /** Where a keyed field's keys are in the metadata: `metadata` at its top, a span's `resource` under `otel.resource`. */
  keyed: Record<string, string[]>;
  /** The condition of one of the dialect's own fields; undefined for a column compared exactly. */
  field(
    n: Extract<SearchNode, { type: 'field' }>,
    param: (value: unknown, type: string) => string,
    text: (column: string, pattern: string) => string,
  ): string | undefined;
}

/** The logs table: words in the message, levels by severity, `message:` as a word. */
export const LOG_COLUMNS: SearchColumns = {
  text: 'message',
  keyed: { metadata: [] },
  field(n, param, text) {
    if (n.field === 'level') {
      if (n.op === '=') return `level = ${param(n.value, 'String')}`;
      return `level IN ${param(levelsFrom(n.value, n.op as Comparison), 'Array(String)')}`;
    }
    if (n.field === 'message' && n.op !== 'exists') return text('message', contains(n.value, n.wildcard));
    return undefined;
  },
};

/**
 * The condition of a parsed search; parameter names start with `prefix` and a number.
 * `on`: the table's columns (the logs' by default, a span's with span/search-dialect.ts), or
 * JSON text columns that words and `message:` match instead of the logs' message (an LLM
 * call's input and output, llm/calls.ts).
 */
export function searchSql(node: SearchNode, prefix = 'sq', on: SearchColumns | readonly string[] = LOG_COLUMNS): SearchSql {
  const jsonText = Array.isArray(on) ? (on as readonly string[]) : undefined;
  const columns = jsonText ? LOG_COLUMNS : (on as SearchColumns);
  const params: Record<string, unknown> = {};
  const param = (value: unknown, type: string) => {
    const name = `${prefix}${Object.keys(params).length}`;
    params[name] = value;
    return `{${name}:${type}}`;
  };
  const text = (column: string, pattern: string) => `lower(${column}) LIKE ${param(pattern, 'String')}`;

  const metadata = (root: string[], key: string, op: FieldOp, value: string, wildcard: boolean) => {
    const one = (path: string[]) => {
      const at = [...root, ...path].map((k) => param(k, 'String')).join(', ');
      const type = `JSONType(metadata, ${at})`;
      if (op === 'exists') return `JSONHas(metadata, ${at})`;
      if (op !== '=') return `(${type} IN ${NUMERIC_TYPES} AND JSONExtractFloat(metadata, ${at}) ${op} ${param(Number(value), 'Float64')})`;
      if (wildcard) {
        const p = param(likePattern(value, true), 'String');
        return `((${type} = 'String' AND JSONExtractString(metadata, ${at}) LIKE ${p}) OR (${type} IN ('Int64', 'UInt64') AND JSONExtractRaw(metadata, ${at}) LIKE ${p}))`;
      }
      // A string is compared decoded; the pre-check on the text (the value as JSON.stringify
      // wrote it, quotes included) is implied by it and lets the skip indexes drop granules.
      const branches = [
        `(${type} = 'String' AND ${text('metadata', `%${likePattern(asciiLower(JSON.stringify(value)), false)}%`)} AND JSONExtractString(metadata, ${at}) = ${param(value, 'String')})`,
      ];
      if (NUMBER.test(value) && Number.isFinite(Number(value)))
        branches.push(
          exactNumber(value)
            ? `(${type} IN ${NUMERIC_TYPES} AND JSONExtractFloat(metadata, ${at}) = ${param(Number(value), 'Float64')})`
            : // Past 2^53 a float is not exact: the number as written, digit for digit.
              `(${type} IN ('Int64', 'UInt64') AND JSONExtractRaw(metadata, ${at}) = ${param(value, 'String')})`,
        );
      if (value === 'true' || value === 'false') branches.push(`(${type} = 'Bool' AND JSONExtractBool(metadata, ${at}) = ${param(value === 'true' ? 1 : 0, 'UInt8')})`);
      if (value === 'null') branches.push(`${type} = 'Null'`);
      return branches.length === 1 ? branches[0] : `(${branches.join(' OR ')})`;
    };
    const paths = metadataPaths(key).map(one);
    return paths.length === 1 ? paths[0] : `(${paths.join(' OR ')})`;
  };

  const walk = (n: SearchNode): string => {
    switch (n.type) {
      case 'and':
      case 'or':
        return `(${n.children.map(walk).join(n.type === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `NOT ${walk(n.child)}`;
      case 'text':
        if (jsonText) return `(${[...jsonText, 'metadata'].map((c) => text(c, contains(jsonInner(n.value), n.wildcard))).join(' OR ')})`;
        return `(${text(columns.text, contains(n.value, n.wildcard))} OR ${text('metadata', contains(jsonInner(n.value), n.wildcard))})`;
      case 'field': {
        const root = ownEntry(columns.keyed, n.field);
        if (root && n.key !== undefined) return metadata(root, n.key, n.op, n.value, n.wildcard);
        if (n.field === 'message' && jsonText && n.op !== 'exists') return `(${jsonText.map((c) => text(c, contains(jsonInner(n.value), n.wildcard))).join(' OR ')})`;
        const own = columns.field(n, param, text);
        if (own !== undefined) return own;
        if (n.op === 'exists') return `notEmpty(${n.field})`;
        return n.wildcard ? `${n.field} LIKE ${param(likePattern(n.value, true), 'String')}` : `${n.field} = ${param(n.value, 'String')}`;
      }
    }
  };
  return { where: walk(node), params };
}

/** The levels a comparison admits, by severity (debug < info < warn < error). */
export function levelsFrom(level: string, op: Comparison): string[] {
  const i = LEVELS.indexOf(level);
  const keep = { '>': (j: number) => j > i, '>=': (j: number) => j >= i, '<': (j: number) => j < i, '<=': (j: number) => j <= i }[op];
  return LEVELS.filter((_, j) => keep(j));
}
