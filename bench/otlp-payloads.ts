import { OTLP_CONTENT_TYPES, OTLP_TYPES } from '@devtrail/otlp';
import { logLines } from './payloads.ts';

// The log bench's lines as an OpenTelemetry SDK would export them: one
// ExportLogsServiceRequest per batch, protobuf-encoded with the OTLP .proto definitions
// (libs/otlp/proto), for `npm run bench -- --otlp`.

export const OTLP_LOGS = { path: '/v1/logs', contentType: OTLP_CONTENT_TYPES.protobuf } as const;

const SEVERITY: Record<string, number> = { debug: 5, info: 9, warn: 13, error: 17 };

const str = (key: string, v: string) => ({ key, value: { stringValue: v } });
const attr = (key: string, v: unknown) => (typeof v === 'number' ? { key, value: { intValue: v } } : str(key, String(v)));

/** A protobuf ExportLogsServiceRequest of `size` records; with `probe`, the first record's body is the marker. */
export function otlpLogBatch(size: number, probe?: string): Buffer {
  const b = logLines(size, probe);
  const request = {
    resourceLogs: [
      {
        resource: { attributes: [str('service.name', b.service), str('deployment.environment.name', b.environment), str('service.version', b.release)] },
        scopeLogs: [
          {
            scope: { name: 'http' },
            logRecords: b.logs.map((l) => ({
              timeUnixNano: String(Date.parse(l.timestamp) * 1e6),
              severityNumber: SEVERITY[l.level],
              severityText: l.level.toUpperCase(),
              body: { stringValue: l.message },
              attributes: [...Object.entries(l.metadata).map(([k, v]) => attr(k, v)), str('request_id', l.request_id)],
              traceId: Buffer.from(l.trace_id, 'hex'),
              spanId: Buffer.from(l.span_id, 'hex'),
            })),
          },
        ],
      },
    ],
  };
  const type = OTLP_TYPES.logsRequest;
  return Buffer.from(type.encode(type.fromObject(request)).finish());
}
