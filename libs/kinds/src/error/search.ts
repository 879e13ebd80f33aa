import type { SearchNode } from '../log/search/syntax.ts';
import { asciiLower, jsonInner, likePattern, metadataPaths, type SearchSql } from '../log/search/sql.ts';
import { ownEntry } from '../log/search/own-entry.ts';

// The errors list's search: the logs' syntax (docs/dashboard.md, "Search syntax"), read over
// the errors table (docs/dashboard.md, "Errors"). A word matches the message, the type or the
// context; service, environment, release, trace_id and message/msg name their columns;
// type, severity, user (user_id) and fingerprint name the error's own; any other key is a
// context key (span_id and request_id are where the SDK puts them). Every value the user
// typed is a query parameter: no input changes what the query does.

const COLUMNS: Record<string, string> = {
  service: 'service',
  environment: 'environment',
  release: 'release',
  trace_id: 'trace_id',
  type: 'error_type',
  error_type: 'error_type',
  severity: 'severity',
  user: 'user_id',
  user_id: 'user_id',
  fingerprint: 'fingerprint',
};

/** The condition of a parsed search over the errors table; parameter names start with `prefix`. */
export function errorSearchSql(node: SearchNode, prefix = 'es'): SearchSql {
  const params: Record<string, unknown> = {};
  const param = (value: unknown, type: string) => {
    const name = `${prefix}${Object.keys(params).length}`;
    params[name] = value;
    return `{${name}:${type}}`;
  };
  const like = (column: string, value: string, wildcard: boolean) => `lower(${column}) LIKE ${param(`%${likePattern(asciiLower(value), wildcard)}%`, 'String')}`;
  const exact = (column: string, value: string, wildcard: boolean) =>
    wildcard ? `toString(${column}) LIKE ${param(likePattern(value, true), 'String')}` : `toString(${column}) = ${param(value, 'String')}`;

  const contextKey = (key: string, op: string, value: string, wildcard: boolean) => {
    const one = (path: string[]) => {
      const at = path.map((k) => param(k, 'String')).join(', ');
      if (op === 'exists') return `JSONHas(context, ${at})`;
      if (op !== '=') return `(JSONType(context, ${at}) IN ('Int64', 'UInt64', 'Double') AND JSONExtractFloat(context, ${at}) ${op} ${param(Number(value), 'Float64')})`;
      const raw = `JSONExtractRaw(context, ${at})`;
      const str = `JSONExtractString(context, ${at})`;
      if (wildcard) return `(${str} LIKE ${param(likePattern(value, true), 'String')} OR ${raw} LIKE ${param(likePattern(value, true), 'String')})`;
      return `(${str} = ${param(value, 'String')} OR ${raw} = ${param(value, 'String')})`;
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
        return `(${like('error_message', n.value, n.wildcard)} OR ${like('error_type', n.value, n.wildcard)} OR ${like('context', jsonInner(n.value), n.wildcard)})`;
      case 'field': {
        if (n.field === 'message') return n.op === 'exists' ? 'notEmpty(error_message)' : like('error_message', n.value, n.wildcard);
        if (n.field === 'level') return `severity = ${param(n.value, 'String')}`;
        const name = n.field === 'metadata' ? n.key! : n.field;
        const column = ownEntry(COLUMNS, name);
        if (!column) return contextKey(name, n.op, n.value, n.wildcard);
        if (n.op === 'exists') return `notEmpty(${column})`;
        if (n.op !== '=') return 'false'; // a comparison means nothing for these text columns
        return exact(column, n.value, n.wildcard);
      }
    }
  };
  return { where: walk(node), params };
}
