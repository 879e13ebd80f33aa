// An object with the shape of an OpenTelemetry SpanExporter that forwards
// finished spans to /ingest/traces. Structural typing only: pass it to
// @vercel/otel's registerOTel({ traceExporter }) or a BatchSpanProcessor,
// with no OpenTelemetry package loaded by this SDK.
import type { DevtrailClient } from '../client.js';
import type { Metadata } from '../types.js';

/** [seconds, nanoseconds], OpenTelemetry's HrTime. */
export type HrTime = [number, number];

/** The parts of an OpenTelemetry ReadableSpan that are read (SDK 1.x and 2.x). */
export interface ReadableSpanLike {
  name: string;
  kind?: number;
  spanContext(): { traceId: string; spanId: string };
  /** SDK 1.x */
  parentSpanId?: string;
  /** SDK 2.x */
  parentSpanContext?: { spanId: string };
  startTime: HrTime;
  endTime?: HrTime;
  duration?: HrTime;
  /** code: 0 unset, 1 ok, 2 error */
  status?: { code: number; message?: string };
  attributes?: Record<string, unknown>;
  events?: { name: string; attributes?: Record<string, unknown> }[];
  instrumentationScope?: { name: string };
  instrumentationLibrary?: { name: string };
}

/** ExportResult: code 0 is success, 1 failure. */
export interface ExportResultLike {
  code: 0 | 1;
  error?: Error;
}

export interface SpanExporterLike {
  export(spans: ReadableSpanLike[], resultCallback: (result: ExportResultLike) => void): void;
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

export interface SpanExporterOptions {
  /** Return false to skip a span (Next.js emits many internal ones). */
  filter?: (span: ReadableSpanLike) => boolean;
}

const SPAN_KINDS = ['internal', 'server', 'client', 'producer', 'consumer'];
const STATUS_ERROR = 2;

export const hrTimeToMs = (t: HrTime): number => t[0] * 1e3 + t[1] / 1e6;

function metadataOf(span: ReadableSpanLike): Metadata {
  const meta: Metadata = { ...span.attributes };
  if (span.kind !== undefined) meta['otel.kind'] = SPAN_KINDS[span.kind] ?? span.kind;
  const scope = span.instrumentationScope?.name ?? span.instrumentationLibrary?.name;
  if (scope) meta['otel.scope'] = scope;
  if (span.status?.message) meta['otel.status_message'] = span.status.message;
  const exception = span.events?.find((e) => e.name === 'exception');
  if (exception?.attributes) {
    meta['exception.type'] = exception.attributes['exception.type'];
    meta['exception.message'] = exception.attributes['exception.message'];
  }
  return meta;
}

export function createSpanExporter(client: DevtrailClient, options: SpanExporterOptions = {}): SpanExporterLike {
  let stopped = false;
  return {
    export(spans, resultCallback) {
      if (stopped) return resultCallback({ code: 1, error: new Error('exporter shut down') });
      for (const span of spans) {
        try {
          if (options.filter && !options.filter(span)) continue;
          const { traceId, spanId } = span.spanContext();
          const startMs = hrTimeToMs(span.startTime);
          const durationMs = span.duration ? hrTimeToMs(span.duration) : span.endTime ? hrTimeToMs(span.endTime) - startMs : 0;
          client.recordSpan({
            traceId,
            spanId,
            parentSpanId: span.parentSpanContext?.spanId ?? span.parentSpanId ?? '',
            operation: span.name,
            startTime: startMs,
            durationMs,
            status: span.status?.code === STATUS_ERROR ? 'error' : 'ok',
            metadata: metadataOf(span),
          });
        } catch {
          // one malformed span must not fail the batch
        }
      }
      // Delivery (batching, retries) is the client's job from here on.
      resultCallback({ code: 0 });
    },
    async shutdown() {
      stopped = true;
      await client.flush();
    },
    async forceFlush() {
      await client.flush();
    },
  };
}
