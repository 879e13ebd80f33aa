import { SPAN_SEARCH } from '../src/span/search-fields.ts';
import type { SearchNode } from '../src/search/syntax.ts';
import { matches } from './search-reference.ts';

// The trace search as docs/dashboard.md states it, read in plain JavaScript: which traces a
// search (one span matching it, search-reference.ts over the spans' map), a service and a status
// select, in which order. The read-API test holds GET /traces to it.

export interface ReferenceSpan {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  service: string;
  environment: string;
  release: string;
  operation: string;
  status: string;
  duration_ms: number;
  start_ms: number;
  metadata: Record<string, unknown>;
}

export const spanMatches = (node: SearchNode, s: ReferenceSpan): boolean => matches(node, SPAN_SEARCH, s as unknown as Record<string, unknown>);

export interface ReferenceQuery {
  fromMs: number;
  toMs: number;
  search: SearchNode | null;
  service?: string;
  status?: 'ok' | 'error';
  sort: 'time' | 'duration';
}

/** The trace ids a search selects, in the order the read API lists them. */
export function tracesMatching(spans: ReferenceSpan[], q: ReferenceQuery): string[] {
  const byTrace = new Map<string, ReferenceSpan[]>();
  for (const s of spans) byTrace.set(s.trace_id, [...(byTrace.get(s.trace_id) ?? []), s]);
  const roots = spans.filter((s) => s.parent_span_id === '' && s.start_ms >= q.fromMs && s.start_ms <= q.toMs);
  const picked = roots.filter((root) => {
    const all = byTrace.get(root.trace_id) ?? [];
    if (q.search && !all.some((s) => spanMatches(q.search!, s))) return false;
    if (q.service && !all.some((s) => s.service.toLowerCase() === q.service!.toLowerCase())) return false;
    const failed = all.some((s) => s.status === 'error');
    if (q.status === 'error' && !failed) return false;
    if (q.status === 'ok' && failed) return false;
    return true;
  });
  const desc = (a: number | string, b: number | string) => (a < b ? 1 : a > b ? -1 : 0);
  picked.sort((a, b) => (q.sort === 'duration' ? desc(a.duration_ms, b.duration_ms) : 0) || desc(a.start_ms, b.start_ms) || desc(a.trace_id, b.trace_id));
  return picked.map((r) => r.trace_id);
}
