import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyZodObject } from 'zod';
import { EVENT_KINDS, KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import { newEnvelope } from './support/envelopes.ts';
import { readErrors, readLlmUsage, readLogs, readMetricPoints, readReleaseHealth, readScores, readTrace } from '@devtrail/kinds';
import { toRow } from './support/envelopes.ts';
import { publishedOpenApi as buildOpenApiDocument } from '../services/embedded/src/openapi.ts';
import { embeddedAdapters } from './support/embedded-adapters.ts';

// Every field of an event is carried by every place that must carry it: the request
// schema (or the receiver derives it), the envelope, the row, the table, the read API
// and the OpenAPI document. Adding a field to an event schema and forgetting one place
// fails here, naming the place and the field.

/** Fields the receiver computes rather than reads from the request. */
const DERIVED: Record<EventKind, string[]> = {
  log: [],
  error: ['timestamp', 'fingerprint', 'error_type', 'previous_fingerprint'],
  span: [],
  llm: ['timestamp', 'content_truncated'],
  session: [],
  // A summary's quantiles come as pairs: their values are a column of their own.
  metric: ['quantile_values'],
  // An annotation's author is the dashboard's to set (services/dashboard/src/scores).
  score: ['author'],
};
/**
 * The LLM read API is a summary per day, model, provider and service: these fields are aggregated away (latency as p50 and p95);
 * the calls one by one (/llm-calls, LlmCallRecord, derived from the same fields) answer them.
 */
const NOT_READ: Record<EventKind, string[]> = {
  log: [],
  error: [],
  span: [],
  llm: ['environment', 'release', 'timestamp', 'operation', 'metadata', 'latency_ms', 'input', 'output', 'content_truncated'],
  // Release health is a summary per release: its sessions are counted, not listed.
  session: ['service', 'environment', 'session_id', 'distinct_id', 'status', 'start_time', 'timestamp', 'duration_ms', 'errors', 'seq'],
  metric: [],
  score: [],
};
/** The OpenAPI component documenting what the read API answers for each kind. */
const RECORD_SCHEMA: Record<EventKind, string> = {
  log: 'LogRecord',
  error: 'ErrorRecord',
  span: 'SpanRecord',
  llm: 'LlmUsageSummary',
  session: 'ReleaseHealth',
  metric: 'MetricPoint',
  score: 'ScoreRecord',
};
/** The smallest valid request of each kind. */
const SAMPLE: Record<EventKind, unknown> = {
  log: { logs: [{ level: 'info', message: 'm' }] },
  error: { error_message: 'e', stack_trace: 'Error: e\n    at f (/a.js:1:1)' },
  span: { trace_id: 'fields-trace', span_id: 's', operation: 'o', start_time: new Date().toISOString(), duration_ms: 1 },
  llm: { model: 'm', provider: 'p', operation: 'o', input_tokens: 1, output_tokens: 1, latency_ms: 1 },
  session: { session_id: 's', status: 'exited', start_time: new Date().toISOString(), release: 'r1' },
  metric: { metrics: [{ metric: 'fields.metric', type: 'gauge', time: new Date().toISOString(), value: 1 }] },
  score: { name: 'fields.score', value: 1, trace_id: 'fields-trace' },
};

const keys = (schema: unknown) => Object.keys((schema as AnyZodObject).shape);
const eventFields = (kind: EventKind) => keys(KINDS[kind].event);
/** The request's own fields; for logs, the batch's shared fields plus an entry's. */
function requestFields(kind: EventKind): string[] {
  const k = kindOf(kind);
  // A refined body (scores) keeps its object inside.
  let body = k.request as unknown as { _def: { schema?: unknown } };
  while (body._def.schema) body = body._def.schema as typeof body;
  const top = keys(body);
  if (!k.batchField) return top;
  let entry = ((body as unknown as AnyZodObject).shape[k.batchField] as unknown as { element: AnyZodObject }).element as unknown as { _def: { schema?: unknown } };
  // A refined entry (metrics) keeps its object inside.
  while (entry._def.schema) entry = entry._def.schema as typeof entry;
  return [...top.filter((f) => f !== k.batchField), ...keys(entry)];
}

let adapters: Awaited<ReturnType<typeof embeddedAdapters>>;
const project = 'kind-fields-project';
const rows = {} as Record<EventKind, Record<string, unknown>>;
beforeAll(async () => {
  adapters = await embeddedAdapters();
  const now = new Date().toISOString();
  for (const kind of EVENT_KINDS) {
    const k = kindOf(kind);
    const [event] = k.toEvents(k.request.parse(SAMPLE[kind]), now);
    rows[kind] = toRow(newEnvelope(kind, project, now, event as never));
    await adapters.columnStore.insert(KINDS[kind].name, [rows[kind]]);
  }
});
afterAll(async () => adapters.close());

describe.each(EVENT_KINDS)('the fields of a %s event', (kind) => {
  it('come from the request, or the receiver derives them; and no request field is dropped', () => {
    const fromRequest = requestFields(kind);
    expect(
      eventFields(kind).filter((f) => !fromRequest.includes(f) && !DERIVED[kind].includes(f)),
      'event fields nobody sends',
    ).toEqual([]);
    expect(
      fromRequest.filter((f) => !eventFields(kind).includes(f)),
      'request fields the event drops',
    ).toEqual([]);
  });

  it('are all in the envelope the receiver builds', () => {
    const k = kindOf(kind);
    const [event] = k.toEvents(k.request.parse(SAMPLE[kind]), new Date().toISOString());
    expect(Object.keys(event as object).sort()).toEqual([...eventFields(kind)].sort());
  });

  it('are all columns of the row and of the table, and the table has no column the row lacks', async () => {
    const rowKeys = Object.keys(rows[kind]);
    expect(
      eventFields(kind).filter((f) => !rowKeys.includes(f)),
      'missing from the row',
    ).toEqual([]);
    const columns = (await adapters.columnStore.query<{ name: string }>(`DESCRIBE TABLE ${KINDS[kind].name}`)).map((c) => c.name);
    expect([...columns].sort(), 'table columns vs row keys').toEqual([...rowKeys].sort());
  });

  it('come back through the read API', async () => {
    const read: Record<EventKind, () => Promise<object[]>> = {
      log: async () => (await readLogs(adapters.columnStore, { projectId: project, retentionDays: 30 })).logs,
      error: async () => (await readErrors(adapters.columnStore, { projectId: project, retentionDays: 30 })).errors,
      span: () => readTrace(adapters.columnStore, project, 'fields-trace', 30),
      llm: () => readLlmUsage(adapters.columnStore, { projectId: project, retentionDays: 30 }),
      session: () => readReleaseHealth(adapters.columnStore, { projectId: project, retentionDays: 30 }),
      metric: () => readMetricPoints(adapters.columnStore, { projectId: project, retentionDays: 30, metric: 'fields.metric' }),
      score: async () => (await readScores(adapters.columnStore, { projectId: project, retentionDays: 30 })).scores,
    };
    const [record] = await read[kind]();
    expect(record, 'the sample was stored').toBeDefined();
    const got = Object.keys(record);
    expect(
      eventFields(kind).filter((f) => !got.includes(f) && !NOT_READ[kind].includes(f)),
      'missing from the read API',
    ).toEqual([]);
  });

  it('are documented in the OpenAPI record the read API answers with', () => {
    const doc = buildOpenApiDocument() as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    const documented = Object.keys(doc.components.schemas[RECORD_SCHEMA[kind]].properties);
    expect(
      eventFields(kind).filter((f) => !documented.includes(f) && !NOT_READ[kind].includes(f)),
      'missing from OpenAPI',
    ).toEqual([]);
  });
});
