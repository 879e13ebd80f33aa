import type { Type } from 'protobufjs';
import { OTLP_TYPES } from './proto-root.ts';
import type { OtlpEncoding } from './decode.ts';

// OTLP/HTTP answers, in the encoding of the request ("The server MUST use the same
// Content-Type in the response as it received in the request"): the Export*ServiceResponse
// on success, with partial_success only when something was rejected, and google.rpc.Status
// for every 4xx/5xx.

export type OtlpSignal = 'logs' | 'traces' | 'metrics';

export const OTLP_CONTENT_TYPES: Record<OtlpEncoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

const RESPONSE: Record<OtlpSignal, { type: Type; rejectedField: string }> = {
  logs: { type: OTLP_TYPES.logsResponse, rejectedField: 'rejectedLogRecords' },
  traces: { type: OTLP_TYPES.traceResponse, rejectedField: 'rejectedSpans' },
  metrics: { type: OTLP_TYPES.metricsResponse, rejectedField: 'rejectedDataPoints' },
};

export interface OtlpAnswer {
  contentType: string;
  body: Buffer | Record<string, unknown>;
}

function encode(type: Type, object: Record<string, unknown>, encoding: OtlpEncoding): OtlpAnswer {
  const message = type.fromObject(object);
  if (encoding === 'protobuf') return { contentType: OTLP_CONTENT_TYPES.protobuf, body: Buffer.from(type.encode(message).finish()) };
  // proto3 JSON: int64 as decimal strings, zero values left out.
  return { contentType: OTLP_CONTENT_TYPES.json, body: type.toObject(message, { longs: String }) };
}

/** The success answer; `errorMessage` alone (nothing rejected) is a warning the OTLP specification allows. */
export function exportResponse(signal: OtlpSignal, encoding: OtlpEncoding, rejected: number, errorMessage = ''): OtlpAnswer {
  const r = RESPONSE[signal];
  const partial = rejected > 0 || errorMessage !== '' ? { partialSuccess: { [r.rejectedField]: rejected, errorMessage } } : {};
  return encode(r.type, partial, encoding);
}

// google.rpc.Code values for the HTTP statuses devtrail answers (OTLP leaves the code optional).
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 403: 7, 404: 12, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14 };

export function statusResponse(httpStatus: number, message: string, encoding: OtlpEncoding): OtlpAnswer {
  return encode(OTLP_TYPES.status, { code: GRPC_CODE[httpStatus] ?? 2, message }, encoding);
}
