// A unit of timed work. Ending it hands it to the client, which sends it
// (docs/sdk.md#delivery); ending twice is a no-op so middleware can end on
// several signals (finish, close, error) without double reporting. An
// unsampled span (W3C flag 00) is timed and propagated but not sent.
import { newSpanId, newTraceId } from './ids.js';
import { formatTraceparent, type SpanContext } from './trace-context.js';
import type { Metadata, SpanStatus } from './types.js';

export interface SpanInit {
  operation: string;
  traceId?: string;
  parentSpanId?: string;
  metadata?: Metadata;
  /** Epoch milliseconds; defaults to now. */
  startTime?: number;
  /** The W3C sampled flag: an unsampled span is propagated but not sent. Default true. */
  sampled?: boolean;
}

export interface SpanEndOptions {
  status?: SpanStatus;
  /** Epoch milliseconds; defaults to now. */
  endTime?: number;
}

const now = (): number => Date.now();
// performance.now() gives sub-millisecond, monotonic durations where available.
const monotonic = (): number | undefined => (typeof performance !== 'undefined' && typeof performance.now === 'function' ? performance.now() : undefined);

export class Span {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly startTime: number;
  readonly sampled: boolean;
  operation: string;
  status: SpanStatus = 'ok';
  readonly metadata: Metadata;
  durationMs: number | undefined;
  private readonly startMono: number | undefined;

  constructor(
    init: SpanInit,
    private readonly onEnd: (span: Span) => void,
  ) {
    this.traceId = init.traceId ?? newTraceId();
    this.spanId = newSpanId();
    this.parentSpanId = init.parentSpanId ?? '';
    this.operation = init.operation;
    this.metadata = { ...init.metadata };
    this.startTime = init.startTime ?? now();
    this.sampled = init.sampled ?? true;
    this.startMono = init.startTime === undefined ? monotonic() : undefined;
  }

  get ended(): boolean {
    return this.durationMs !== undefined;
  }

  setAttribute(key: string, value: unknown): this {
    this.metadata[key] = value;
    return this;
  }

  setAttributes(values: Metadata): this {
    Object.assign(this.metadata, values);
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }

  /** Marks the span failed and keeps the error's type and message as attributes. */
  recordError(error: unknown): this {
    this.status = 'error';
    const err = error instanceof Error ? error : undefined;
    this.metadata['error.type'] = err?.name ?? typeof error;
    this.metadata['error.message'] = err?.message ?? String(error);
    return this;
  }

  end(options: SpanEndOptions = {}): void {
    if (this.ended) return;
    if (options.status) this.status = options.status;
    const mono = monotonic();
    this.durationMs =
      options.endTime === undefined && this.startMono !== undefined && mono !== undefined
        ? mono - this.startMono
        : Math.max(0, (options.endTime ?? now()) - this.startTime);
    this.onEnd(this);
  }

  spanContext(): SpanContext {
    return { traceId: this.traceId, spanId: this.spanId, sampled: this.sampled };
  }

  traceparent(): string {
    return formatTraceparent(this.spanContext());
  }

  /** A span under this one, sent by the same client when it ends (e.g. an outgoing request's). */
  startChild(operation: string, metadata?: Metadata): Span {
    return new Span({ operation, traceId: this.traceId, parentSpanId: this.spanId, metadata, sampled: this.sampled }, this.onEnd);
  }
}
