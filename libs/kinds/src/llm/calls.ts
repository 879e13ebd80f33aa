import {
  bucketExpr,
  clampLimit,
  decodeCursor,
  encodeCursor,
  fromChTime,
  rangeOrDefault,
  withinRetention,
  type Buckets,
  type ColumnStore,
  type TimeRange,
} from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import { searchSql } from '../log/search/sql.ts';
import type { SearchNode } from '../log/search/syntax.ts';
import { COST_SOURCE_SQL, EFFECTIVE_COST_SQL, ESTIMATE_SQL, PRICED_SQL, PRICES_WITH, priceParams, SENT_SQL, type CostSource, type PriceOf } from './cost.ts';
import type { LlmEvent } from './event.ts';
import { llm } from './index.ts';

// The LLM page's explorer: calls one by one (with their conversation and metadata, which
// carries the trace id the SDK and the OTLP mapping put there), sorted as asked; usage broken
// down by any metadata key (enduser.id and session.id among them); the metadata keys calls
// carry; latency over time. A metadata filter and a search are the logs search's
// (log/search/sql.ts), as metadata is the same JSON text in both tables and input and output
// are JSON text too. Every cost is the effective cost (cost.ts).

/** A call as the read API answers it: cost_usd is the effective cost; sent_cost_usd what the client sent (0: none). */
export type LlmCallRecord = RecordOf<LlmEvent> & { sent_cost_usd: number; cost_source: CostSource; estimated_cost_usd: number | null };

/** The calls of one session: its metadata session.id, else its gen_ai.conversation.id (a string, or another scalar's JSON text). */
const scalar = (key: string) => `if(JSONType(metadata, '${key}') = 'String', JSONExtractString(metadata, '${key}'), JSONExtractRaw(metadata, '${key}'))`;
export const SESSION_SQL = `if(${scalar('session.id')} != '', ${scalar('session.id')}, ${scalar('gen_ai.conversation.id')})`;

export interface LlmCallFilter {
  projectId: string;
  /** The project's retention of the kind: older rows are never returned (docs/data.md). */
  retentionDays: number;
  /** The deployment's price table (cost.ts); absent: nothing is estimated. */
  prices?: PriceOf;
  range?: Partial<TimeRange>;
  model?: string;
  service?: string;
  /** Calls whose metadata has this key with this value (a string, number, boolean or null as text). */
  metadata?: { key: string; value: string };
  /** The logs' search syntax over the conversation and metadata (llmSearch). */
  search?: SearchNode | null;
  /** Calls of this session (SESSION_SQL). */
  session?: string;
}

/** Log fields the LLM search reads as metadata keys (the trace the call belongs to). */
const AS_METADATA = new Set(['trace_id', 'span_id']);
const LLM_COLUMNS = new Set(['service', 'environment', 'release', 'metadata', 'message']);

/** A logs search as the LLM calls take it; throws (RangeError) naming a field calls do not have. */
export function llmSearch(node: SearchNode): SearchNode {
  switch (node.type) {
    case 'and':
    case 'or':
      return { ...node, children: node.children.map(llmSearch) };
    case 'not':
      return { ...node, child: llmSearch(node.child) };
    case 'text':
      return node;
    case 'field':
      if (AS_METADATA.has(node.field)) return { ...node, field: 'metadata', key: node.field };
      if (!LLM_COLUMNS.has(node.field) || (node.field === 'message' && node.op === 'exists')) throw new RangeError(`LLM calls cannot be searched by ${node.field}`);
      return node;
  }
}

function llmWhere(f: LlmCallFilter, range: TimeRange) {
  const params: Record<string, unknown> = { project: f.projectId, from: range.fromMs, to: range.toMs, retention: f.retentionDays };
  const where = [
    'project_id = {project:String}',
    'timestamp >= fromUnixTimestamp64Milli({from:Int64})',
    'timestamp <= fromUnixTimestamp64Milli({to:Int64})',
    withinRetention(llm.tableDef.ttlColumn),
  ];
  if (f.model) {
    where.push('model = {model:String}');
    params.model = f.model;
  }
  if (f.service) {
    where.push('service = {service:String}');
    params.service = f.service;
  }
  if (f.metadata) {
    const s = searchSql({ type: 'field', field: 'metadata', key: f.metadata.key, op: '=', value: f.metadata.value, wildcard: false });
    where.push(s.where);
    Object.assign(params, s.params);
  }
  if (f.search) {
    const s = searchSql(llmSearch(f.search), 'lq', ['input', 'output']);
    where.push(s.where);
    Object.assign(params, s.params);
  }
  if (f.session !== undefined) {
    where.push(`${SESSION_SQL} = {session:String}`);
    params.session = f.session;
  }
  return { where, params };
}

/** What calls can be sorted by. */
export const CALL_SORTS = {
  time: 'timestamp',
  cost: EFFECTIVE_COST_SQL,
  tokens: '(input_tokens + output_tokens)',
  latency: 'latency_ms',
} as const;
export type LlmCallSort = keyof typeof CALL_SORTS;

/** A page's cursor: the last call's time and id, and its sort value when not sorted by time. */
function decodeSortCursor(cursor: string | undefined, sorted: boolean): { time: string; id: string; value?: number } | null {
  if (!cursor) return null;
  const dot = cursor.indexOf('.'); // base64url has none; the value may
  const [at, value] = dot < 0 ? [cursor, undefined] : [cursor.slice(0, dot), cursor.slice(dot + 1)];
  const c = decodeCursor(at);
  if (!c || !sorted) return c;
  const v = Number(value);
  return value !== undefined && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value) && Number.isFinite(v) ? { ...c, value: v } : null;
}

/** Calls, newest first or by `sort` (`order` desc by default), cursor-paginated. */
export async function readLlmCalls(
  store: ColumnStore,
  f: LlmCallFilter & { cursor?: string; limit?: number; sort?: LlmCallSort; order?: 'asc' | 'desc' },
): Promise<{ calls: LlmCallRecord[]; nextCursor: string | null }> {
  const limit = clampLimit(f.limit);
  const sort = f.sort ?? 'time';
  const dir = f.order === 'asc' ? 'ASC' : 'DESC';
  const range = rangeOrDefault(f.range);
  const { where, params } = llmWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  const sorted = sort !== 'time';
  const cursor = decodeSortCursor(f.cursor, sorted);
  if (cursor) {
    const key = sorted ? `(${CALL_SORTS[sort]}, timestamp, event_id)` : '(timestamp, event_id)';
    const at = `toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String})`;
    where.push(`${key} ${dir === 'DESC' ? '<' : '>'} (${sorted ? '{cval:Float64}, ' : ''}${at})`);
    Object.assign(params, { ctime: cursor.time, cid: cursor.id, cval: cursor.value ?? 0 });
  }
  const order = sorted ? `${CALL_SORTS[sort]} ${dir}, timestamp ${dir}, event_id ${dir}` : `timestamp ${dir}, event_id ${dir}`;
  const rows = await store.query<Record<string, unknown>>(
    `${PRICES_WITH}
     SELECT ${llm.recordColumns.join(', ')}, ${EFFECTIVE_COST_SQL} AS effective_cost_usd, ${COST_SOURCE_SQL} AS cost_source,
            if(${PRICED_SQL}, ${ESTIMATE_SQL}, NULL) AS estimate, ${CALL_SORTS[sort]} AS sort_value
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT {limit:UInt32}`,
    { ...params, limit: limit + 1 },
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    calls: page.map((r) => {
      const { effective_cost_usd, cost_source, estimate, sort_value: _, ...rest } = r;
      const rec = llm.toRecord(rest) as RecordOf<LlmEvent>;
      return {
        ...rec,
        cost_usd: Number(effective_cost_usd),
        sent_cost_usd: rec.cost_usd,
        cost_source: cost_source as CostSource,
        estimated_cost_usd: estimate === null ? null : Number(estimate),
      };
    }),
    nextCursor:
      rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) + (sorted ? `.${String(Number(last.sort_value))}` : '') : null,
  };
}

export interface LlmMetadataRow {
  /** The key's value (a string as it is, another scalar as its JSON text); null for calls without the key. */
  value: string | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  /** Effective cost; estimated_cost_usd is the part of it from the price table. */
  cost_usd: number;
  estimated_cost_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/** What a breakdown's rows can be sorted by (largest first). */
export const BREAKDOWN_SORTS = {
  calls: 'm_calls',
  cost: 'm_cost_usd',
  tokens: '(m_input_tokens + m_output_tokens)',
  latency: 'm_latency_p95_ms',
} as const;
export type LlmBreakdownSort = keyof typeof BREAKDOWN_SORTS;

/** Usage per value of one metadata key, most called first or by `sort` (at most `limit` values). */
export async function readLlmByMetadata(store: ColumnStore, f: LlmCallFilter & { key: string; limit?: number; sort?: LlmBreakdownSort }): Promise<LlmMetadataRow[]> {
  const range = rangeOrDefault(f.range);
  const { where, params } = llmWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  const rows = await store.query<Record<string, string | number | null>>(
    `${PRICES_WITH}
     SELECT if(JSONHas(metadata, {key:String}),
               if(JSONType(metadata, {key:String}) = 'String', JSONExtractString(metadata, {key:String}), JSONExtractRaw(metadata, {key:String})),
               NULL) AS m_value,
            count() AS m_calls, sum(input_tokens) AS m_input_tokens, sum(output_tokens) AS m_output_tokens,
            sum(${EFFECTIVE_COST_SQL}) AS m_cost_usd, sumIf(${ESTIMATE_SQL}, NOT (${SENT_SQL})) AS m_estimated_cost_usd,
            quantileExact(0.5)(latency_ms) AS m_latency_p50_ms, quantileExact(0.95)(latency_ms) AS m_latency_p95_ms
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')}
      GROUP BY m_value ORDER BY ${BREAKDOWN_SORTS[f.sort ?? 'calls']} DESC, m_calls DESC, m_value LIMIT {limit:UInt32}`,
    { ...params, key: f.key, limit: clampLimit(f.limit, 50) },
  );
  return rows.map((r) => ({
    value: r.m_value === null ? null : String(r.m_value),
    calls: Number(r.m_calls),
    input_tokens: Number(r.m_input_tokens),
    output_tokens: Number(r.m_output_tokens),
    cost_usd: Number(r.m_cost_usd),
    estimated_cost_usd: Number(r.m_estimated_cost_usd),
    latency_p50_ms: Number(r.m_latency_p50_ms),
    latency_p95_ms: Number(r.m_latency_p95_ms),
  }));
}

export interface LlmSession {
  /** The session.id (else gen_ai.conversation.id) its calls share. */
  session: string;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  first_at: string;
  last_at: string;
  /** The enduser.id of its first call that carries one. */
  user: string | null;
}

/** Sessions with calls in the range, latest activity first (at most `limit`). */
export async function readLlmSessions(store: ColumnStore, f: LlmCallFilter & { limit?: number }): Promise<LlmSession[]> {
  const range = rangeOrDefault(f.range);
  const { where, params } = llmWhere(f, range);
  Object.assign(params, await priceParams(store, llm.name, f.projectId, range, f.prices));
  const rows = await store.query<Record<string, string | number | null>>(
    `${PRICES_WITH}
     SELECT ${SESSION_SQL} AS m_session, count() AS m_calls, sum(input_tokens) AS m_input_tokens, sum(output_tokens) AS m_output_tokens,
            sum(${EFFECTIVE_COST_SQL}) AS m_cost_usd, min(timestamp) AS m_first_at, max(timestamp) AS m_last_at,
            argMinIf(${scalar('enduser.id')}, timestamp, ${scalar('enduser.id')} != '') AS m_user
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} AND ${SESSION_SQL} != ''
      GROUP BY m_session ORDER BY m_last_at DESC, m_session LIMIT {limit:UInt32}`,
    { ...params, limit: clampLimit(f.limit, 50) },
  );
  return rows.map((r) => ({
    session: String(r.m_session),
    calls: Number(r.m_calls),
    input_tokens: Number(r.m_input_tokens),
    output_tokens: Number(r.m_output_tokens),
    cost_usd: Number(r.m_cost_usd),
    first_at: fromChTime(String(r.m_first_at)),
    last_at: fromChTime(String(r.m_last_at)),
    user: r.m_user ? String(r.m_user) : null,
  }));
}

/** The metadata keys of the newest calls (at most 10,000), most common first. */
export async function readLlmMetadataKeys(store: ColumnStore, f: LlmCallFilter): Promise<Array<{ key: string; calls: number }>> {
  const { where, params } = llmWhere(f, rangeOrDefault(f.range));
  const rows = await store.query<{ key: string; calls: string | number }>(
    `SELECT key, count() AS calls FROM (SELECT metadata FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} ORDER BY timestamp DESC LIMIT 10000)
      ARRAY JOIN JSONExtractKeys(metadata) AS key GROUP BY key ORDER BY calls DESC, key LIMIT 50`,
    params,
  );
  return rows.map((r) => ({ key: r.key, calls: Number(r.calls) }));
}

/** Latency percentiles per bucket (0 where a bucket has no call). */
export async function readLlmLatency(store: ColumnStore, f: LlmCallFilter, buckets: Buckets): Promise<{ p50: number[]; p95: number[]; calls: number[] }> {
  const { where, params } = llmWhere({ ...f, range: buckets }, buckets);
  const rows = await store.query<{ b: string | number; p50: number; p95: number; n: string | number }>(
    `SELECT ${bucketExpr('timestamp')} AS b, quantileExact(0.5)(latency_ms) AS p50, quantileExact(0.95)(latency_ms) AS p95, count() AS n
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} GROUP BY b`,
    { ...params, step: buckets.stepMs },
  );
  const out = { p50: new Array<number>(buckets.count).fill(0), p95: new Array<number>(buckets.count).fill(0), calls: new Array<number>(buckets.count).fill(0) };
  for (const r of rows) {
    const i = Number(r.b);
    if (i < 0 || i >= buckets.count) continue;
    out.p50[i] = Number(r.p50);
    out.p95[i] = Number(r.p95);
    out.calls[i] = Number(r.n);
  }
  return out;
}
