import {
  bucketExpr,
  clampLimit,
  decodeCursor,
  encodeCursor,
  rangeOrDefault,
  withinRetention,
  type Buckets,
  type ColumnStore,
  type TimeRange,
} from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import { searchSql } from '../log/search/sql.ts';
import type { LlmEvent } from './event.ts';
import { llm } from './index.ts';

// The LLM page's explorer: calls one by one (with their metadata, which carries the trace
// id the SDK and the OTLP mapping put there), usage broken down by any metadata key, and
// the metadata keys calls carry. A metadata filter is the logs search's `key:value`
// (log/search/sql.ts), as metadata is the same JSON text in both tables.

export type LlmCallRecord = RecordOf<LlmEvent>;

export interface LlmCallFilter {
  projectId: string;
  /** The project's retention of the kind: older rows are never returned (docs/data.md). */
  retentionDays: number;
  range?: Partial<TimeRange>;
  model?: string;
  service?: string;
  /** Calls whose metadata has this key with this value (a string, number, boolean or null as text). */
  metadata?: { key: string; value: string };
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
  return { where, params };
}

/** Calls, newest first, cursor-paginated. */
export async function readLlmCalls(
  store: ColumnStore,
  f: LlmCallFilter & { cursor?: string; limit?: number },
): Promise<{ calls: LlmCallRecord[]; nextCursor: string | null }> {
  const limit = clampLimit(f.limit);
  const { where, params } = llmWhere(f, rangeOrDefault(f.range));
  const cursor = decodeCursor(f.cursor);
  if (cursor) {
    where.push("(timestamp, event_id) < (toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String}))");
    Object.assign(params, { ctime: cursor.time, cid: cursor.id });
  }
  const rows = await store.query<Record<string, unknown>>(
    `SELECT ${llm.recordColumns.join(', ')} FROM ${llm.name} FINAL WHERE ${where.join(' AND ')} ORDER BY timestamp DESC, event_id DESC LIMIT {limit:UInt32}`,
    { ...params, limit: limit + 1 },
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    calls: page.map((r) => llm.toRecord(r) as LlmCallRecord),
    nextCursor: rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) : null,
  };
}

export interface LlmMetadataRow {
  /** The key's value (a string as it is, another scalar as its JSON text); null for calls without the key. */
  value: string | null;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/** Usage per value of one metadata key, most called first (at most `limit` values). */
export async function readLlmByMetadata(store: ColumnStore, f: LlmCallFilter & { key: string; limit?: number }): Promise<LlmMetadataRow[]> {
  const { where, params } = llmWhere(f, rangeOrDefault(f.range));
  const rows = await store.query<Record<string, string | number | null>>(
    `SELECT if(JSONHas(metadata, {key:String}),
               if(JSONType(metadata, {key:String}) = 'String', JSONExtractString(metadata, {key:String}), JSONExtractRaw(metadata, {key:String})),
               NULL) AS value,
            count() AS calls, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost_usd,
            quantileExact(0.5)(latency_ms) AS latency_p50_ms, quantileExact(0.95)(latency_ms) AS latency_p95_ms
       FROM ${llm.name} FINAL WHERE ${where.join(' AND ')}
      GROUP BY value ORDER BY calls DESC, value LIMIT {limit:UInt32}`,
    { ...params, key: f.key, limit: clampLimit(f.limit, 50) },
  );
  return rows.map((r) => ({
    value: r.value === null ? null : String(r.value),
    calls: Number(r.calls),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: Number(r.cost_usd),
    latency_p50_ms: Number(r.latency_p50_ms),
    latency_p95_ms: Number(r.latency_p95_ms),
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
