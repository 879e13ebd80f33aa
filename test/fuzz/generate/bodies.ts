import fc from 'fast-check';
import { logLevels, MAX_RELEASE_LENGTH, severities, spanStatuses } from '@devtrail/kinds';
import { rawNumber, toJsonText, type RawJson } from './raw-json.ts';
import { edgeNumber, edgeOrLongString, edgeString, idString, isoTimestamp, jsonObject, maybe, orWrongType, unknownFields } from './values.ts';

// One request body per ingest kind, over the whole schema domain (libs/contract/src/schemas.ts,
// vercel-drain.ts). Each body carries a marker (a unique string in one field the read API
// can find it by); the test sets it after sampling, so bodies stay plain data.

export type FuzzKind = 'log' | 'error' | 'span' | 'llm' | 'drain';

export interface FuzzBody {
  kind: FuzzKind;
  path: string;
  contentType: string;
  /** The body as a JS value; RawJson for literals JSON.stringify cannot write. */
  value: any;
}

export const PATHS: Record<FuzzKind, string> = { log: '/ingest/logs', error: '/ingest/errors', span: '/ingest/traces', llm: '/ingest/llm', drain: '/ingest/drain' };

/** Drops undefined fields, as a client that leaves an optional field out. */
const compact = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const withUnknown = <T extends Record<string, unknown>>(arb: fc.Arbitrary<T>) => fc.tuple(arb, unknownFields).map(([o, extra]) => ({ ...extra, ...compact(o) }));

const release = fc.oneof(
  { weight: 8, arbitrary: edgeString.map((s) => s.slice(0, MAX_RELEASE_LENGTH)) },
  { weight: 1, arbitrary: fc.integer({ min: MAX_RELEASE_LENGTH + 1, max: 300 }).map((n) => 'r'.repeat(n)) },
);
const shared = { environment: maybe(orWrongType(edgeString)), release: maybe(release) };

const logEntry = withUnknown(
  fc.record({
    level: orWrongType(fc.constantFrom<string>(...logLevels, ...logLevels, 'fatal', 'INFO')),
    message: orWrongType(edgeOrLongString),
    timestamp: maybe(orWrongType(isoTimestamp)),
    metadata: maybe(jsonObject),
    trace_id: maybe(idString),
    span_id: maybe(idString),
    request_id: maybe(idString),
    context: maybe(edgeString),
    release: maybe(release, 3),
  }),
);

const logBody = withUnknown(
  fc.record({ ...shared, logs: fc.oneof({ weight: 30, arbitrary: fc.array(logEntry, { minLength: 1, maxLength: 4 }) }, { weight: 1, arbitrary: fc.constant([]) }) }),
);

const stackTrace = fc.oneof(
  edgeOrLongString,
  edgeString.map((s) => `TypeError: ${s}\n    at f (/srv/app/${s}.js:1:2)\n    at g (node:internal/x:3:4)`),
);

const breadcrumb = withUnknown(fc.record({ type: edgeString, message: edgeString, timestamp: isoTimestamp }));

const errorBody = withUnknown(
  fc.record({
    service: maybe(edgeString),
    ...shared,
    error_message: orWrongType(edgeOrLongString),
    stack_trace: orWrongType(stackTrace),
    severity: maybe(orWrongType(fc.constantFrom<string>(...severities))),
    context: maybe(jsonObject),
    trace_id: maybe(idString),
    breadcrumbs: maybe(fc.array(breadcrumb, { maxLength: 5 })),
  }),
);

const spanBody = withUnknown(
  fc.record({
    service: maybe(edgeString),
    ...shared,
    trace_suffix: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: idString }),
    span_id: orWrongType(idString),
    parent_span_id: maybe(idString),
    operation: orWrongType(edgeString),
    start_time: orWrongType(isoTimestamp),
    duration_ms: orWrongType(edgeNumber),
    status: maybe(orWrongType(fc.constantFrom<string>(...spanStatuses))),
    metadata: maybe(jsonObject),
  }),
);

const llmBody = withUnknown(
  fc.record({
    ...shared,
    model: orWrongType(edgeString),
    provider: orWrongType(edgeString),
    operation: orWrongType(edgeString),
    input_tokens: orWrongType(edgeNumber),
    output_tokens: orWrongType(edgeNumber),
    cost_usd: maybe(orWrongType(fc.oneof(edgeNumber, fc.double({ min: -10, max: 10, noNaN: true })))),
    latency_ms: orWrongType(edgeNumber),
    metadata: maybe(jsonObject),
  }),
);

/** Epoch milliseconds, in and far out of the range a Date (and the column) holds. */
const drainTimestamp = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1_500_000_000_000, max: 2_000_000_000_000 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<number | RawJson>(
      0,
      -1,
      1.5,
      1_700_000_000_000.75,
      -2_208_988_800_001,
      -2_208_988_800_000,
      10_413_791_999_999,
      10_413_792_000_000,
      253_402_300_799_999,
      8.64e15,
      8.64e15 + 1,
      1e20,
      1e308,
      rawNumber('-0'),
      rawNumber('1e309'),
    ),
  },
);

const drainEntry = withUnknown(
  fc.record({
    id: maybe(idString),
    message: maybe(orWrongType(edgeOrLongString)),
    timestamp: orWrongType(drainTimestamp),
    level: maybe(fc.oneof(fc.constantFrom('info', 'warning', 'error', 'fatal', 'debug', 'WARN'), edgeString)),
    type: maybe(fc.constantFrom('stdout', 'stderr', 'request')),
    source: maybe(fc.oneof(fc.constantFrom('lambda', 'edge', 'static', 'build'), edgeString)),
    host: maybe(edgeString),
    path: maybe(edgeString),
    statusCode: maybe(edgeNumber),
    requestId: maybe(idString),
    deploymentId: maybe(fc.oneof(idString, fc.constant('d'.repeat(200)))),
    environment: maybe(edgeString),
    entrypoint: maybe(edgeString),
    executionRegion: maybe(edgeString),
    traceId: maybe(idString),
    spanId: maybe(idString),
    proxy: maybe(jsonObject),
  }),
);

const drainBody = fc.record({ entries: fc.array(drainEntry, { maxLength: 6 }), ndjson: fc.boolean() });

/** Any kind's body, in about equal shares. */
export const fuzzBody: fc.Arbitrary<FuzzBody> = fc.oneof(
  logBody.map((value) => ({ kind: 'log' as const, path: PATHS.log, contentType: 'application/json', value })),
  errorBody.map((value) => ({ kind: 'error' as const, path: PATHS.error, contentType: 'application/json', value })),
  spanBody.map((value) => ({ kind: 'span' as const, path: PATHS.span, contentType: 'application/json', value })),
  llmBody.map((value) => ({ kind: 'llm' as const, path: PATHS.llm, contentType: 'application/json', value })),
  drainBody.map(({ entries, ndjson }) => ({
    kind: 'drain' as const,
    path: PATHS.drain,
    contentType: ndjson ? 'application/x-ndjson' : 'application/json',
    value: entries,
  })),
);

/** The body's JSON (or NDJSON) text with the marker where the read API finds it back; `b` is left as it is. */
export function markAndSerialise(b: FuzzBody, marker: string): string {
  const v = b.value;
  switch (b.kind) {
    case 'log':
    case 'llm':
      return toJsonText({ ...v, service: marker });
    case 'error':
      return toJsonText({ ...v, user_id: marker });
    case 'span': {
      const { trace_suffix: suffix, ...rest } = v;
      return toJsonText({ ...rest, trace_id: `${marker}${suffix}` });
    }
    case 'drain': {
      const entries = v.map((e: Record<string, unknown>) => ({ ...e, projectName: marker }));
      return b.contentType === 'application/x-ndjson' ? entries.map((e: unknown) => toJsonText(e)).join('\n') : toJsonText(entries);
    }
  }
}
