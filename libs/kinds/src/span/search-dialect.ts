import { checkKeyedOrExact, MAX_EXACT_NUMBER, parseSearch, type SearchDialect, type SearchNode } from '../log/search/syntax.ts';
import { ownEntry } from '../log/search/own-entry.ts';
import { searchSql, type SearchColumns, type SearchSql } from '../log/search/sql.ts';
import { spanStatuses } from './event.ts';

// Trace search speaks the logs' syntax (docs/dashboard.md, "Trace search") over spans: words
// in the operation or the attributes (metadata), span fields, `duration:>2s`, `status:error`,
// attributes as keys (`http.route:/checkout`, `metadata.tenant:acme`) and OTLP resource
// attributes under `resource.` (kept in the span's metadata under `otel.resource`).

/** Span columns the syntax names, with their other spellings. */
export const SPAN_SEARCH_FIELDS = {
  service: { kind: 'exact', aliases: [] },
  environment: { kind: 'exact', aliases: ['env'] },
  release: { kind: 'exact', aliases: [] },
  operation: { kind: 'exact', aliases: ['op', 'name'] },
  status: { kind: 'status', aliases: [] },
  duration: { kind: 'duration', aliases: ['duration_ms'] },
  trace_id: { kind: 'exact', aliases: ['trace'] },
  span_id: { kind: 'exact', aliases: ['span'] },
  parent_span_id: { kind: 'exact', aliases: ['parent'] },
} as const;

/** Where OTLP resource attributes other than service, environment and release are kept (span/otlp.ts). */
export const RESOURCE_KEY = 'otel.resource';

/** A duration's units, in milliseconds; a bare number is milliseconds. */
const UNITS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000, m: 60_000, h: 3600_000 };
const DURATION = /^(\d+(?:\.\d+)?|\.\d+)(us|µs|ms|s|m|h)?$/;

/** A duration as written (`250`, `250ms`, `2s`, `1.5m`) in milliseconds, or undefined. */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * (ownEntry(UNITS, m[2] ?? 'ms') ?? Number.NaN);
  return Number.isFinite(ms) ? ms : undefined;
}

export const SPAN_SEARCH: SearchDialect = {
  fields: SPAN_SEARCH_FIELDS,
  keyed: { 'metadata.': 'metadata', 'resource.': 'resource' },
  check(node, fail) {
    if (node.field === 'duration') {
      if (node.op === 'exists') return fail('every span has a duration: "duration:*" filters nothing');
      const ms = node.wildcard ? undefined : durationMs(node.value);
      if (ms === undefined) return fail(`duration needs a number of ms, or with a unit (us, ms, s, m, h): not "${node.value}"`);
      if (ms > MAX_EXACT_NUMBER) return fail(`duration is at most 2^53 ms (${MAX_EXACT_NUMBER}), not "${node.value}"`);
      return { ...node, value: String(ms) };
    }
    if (node.field === 'status') {
      if (node.op === 'exists') return fail('every span has a status: "status:*" filters nothing');
      const status = node.value.toLowerCase();
      if (node.wildcard || !(spanStatuses as readonly string[]).includes(status)) return fail(`status is ${spanStatuses.join(' or ')}, not "${node.value}"`);
      return { ...node, value: status };
    }
    return checkKeyedOrExact(node, fail, 'duration and attribute numbers');
  },
};

/** The spans table: words in the operation, durations compared in milliseconds. */
export const SPAN_COLUMNS: SearchColumns = {
  text: 'operation',
  keyed: { metadata: [], resource: [RESOURCE_KEY] },
  field(n, param) {
    if (n.field !== 'duration') return undefined;
    return `duration_ms ${n.op === '=' ? '=' : n.op} ${param(Number(n.value), 'Float64')}`;
  },
};

/** Parses a trace search (SearchSyntaxError as the logs' search). */
export const parseSpanSearch = (src: string): SearchNode | null => parseSearch(src, SPAN_SEARCH);

/** The condition on one span of a parsed trace search. */
export const spanSearchSql = (node: SearchNode, prefix = 'ts'): SearchSql => searchSql(node, prefix, SPAN_COLUMNS);
