// OTLP/JSON request builders for the tests (the form OTLP/HTTP JSON exporters send:
// lowerCamelCase, hex ids, int64 times as decimal strings, enums as numbers).

export const TRACE_ID = '5b8efff798038103d269b633813fc60c';
export const SPAN_ID = 'eee19b7ec3c1b174';
export const PARENT_ID = 'eee19b7ec3c1b173';
/** 2026-11-21T10:00:00.123Z plus 456789 ns. */
export const T0_NS = '1795255200123456789';
export const T0_ISO = '2026-11-21T10:00:00.123Z';

export const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
export const int = (key: string, value: number | string) => ({ key, value: { intValue: value } });

export const resource = (...attributes: unknown[]) => ({ attributes });

export function logsRequest(records: unknown[], res = resource(str('service.name', 'checkout'))) {
  return { resourceLogs: [{ resource: res, scopeLogs: [{ scope: { name: 'orders-logger', version: '1.2.0' }, logRecords: records }] }] };
}

export function traceRequest(spans: unknown[], res = resource(str('service.name', 'checkout'))) {
  return { resourceSpans: [{ resource: res, scopeSpans: [{ scope: { name: '@acme/tracer', version: '0.9.0' }, spans }] }] };
}

/** A span of `ms` milliseconds starting at T0. */
export function span(fields: Record<string, unknown> = {}, ms = 41.6) {
  const end = (BigInt(T0_NS) + BigInt(Math.round(ms * 1e6))).toString();
  return { traceId: TRACE_ID, spanId: SPAN_ID, name: 'GET /orders/:id', kind: 2, startTimeUnixNano: T0_NS, endTimeUnixNano: end, ...fields };
}

import { decodeLogsRequest, decodeMetricsRequest, decodeTraceRequest, OTLP_TYPES, PROTOBUFJS } from '../src/index.ts';

/** The protobuf bytes of an OTLP/JSON logs request (what the protobuf exporters send). */
export function logsProtobuf(req: unknown): Buffer {
  const msg = OTLP_TYPES.logsRequest.fromObject(decodeLogsRequest(structuredClone(req), 'json', PROTOBUFJS) as Record<string, unknown>);
  return Buffer.from(OTLP_TYPES.logsRequest.encode(msg).finish());
}

export function traceProtobuf(req: unknown): Buffer {
  const msg = OTLP_TYPES.traceRequest.fromObject(decodeTraceRequest(structuredClone(req), 'json', PROTOBUFJS) as Record<string, unknown>);
  return Buffer.from(OTLP_TYPES.traceRequest.encode(msg).finish());
}

export function metricsRequest(metrics: unknown[], res = resource(str('service.name', 'checkout'))) {
  return { resourceMetrics: [{ resource: res, scopeMetrics: [{ scope: { name: '@acme/meter', version: '2.0.0' }, metrics }] }] };
}

export function metricsProtobuf(req: unknown): Buffer {
  const msg = OTLP_TYPES.metricsRequest.fromObject(decodeMetricsRequest(structuredClone(req), 'json', PROTOBUFJS) as Record<string, unknown>);
  return Buffer.from(OTLP_TYPES.metricsRequest.encode(msg).finish());
}
