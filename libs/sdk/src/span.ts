// A unit of timed work. Ending it hands it to the client, which sends it
// (docs/sdk.md#delivery); ending twice is a no-op so middleware can end on
// several signals (finish, close, error) without double reporting. An
// unsampled span (W3C flag 00) is propagated but not timed, not kept and not sent.
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
  readonly parentSpanId: string;
  /** Epoch milliseconds; 0 for an unsampled span, which is not timed. */
  readonly startTime: number;
  readonly sampled: boolean;
  operation: string;
  status: SpanStatus = 'ok';
  durationMs: number | undefined;
  private traceIdValue: string | undefined;
  private spanIdValue: string | undefined;
  private attributes: Metadata | undefined;
  private readonly startMono: number | undefined;
  private done = false;

  constructor(
    init: SpanInit,
    private readonly onEnd: (span: Span) => void,
  ) {
    this.traceIdValue = init.traceId;
    this.parentSpanId = init.parentSpanId ?? '';
    this.operation = init.operation;
    this.sampled = init.sampled ?? true;
    // An unsampled span is never sent, so it keeps no attributes and reads no clock
    // (docs/sdk.md#overhead); its ids are made only if something asks for them.
    if (this.sampled) {
      if (init.metadata) this.attributes = { ...init.metadata };
      this.startTime = init.startTime ?? now();
      this.startMono = init.startTime === undefined ? monotonic() : undefined;
    } else this.startTime = init.startTime ?? 0;
  }

  /** Made when first asked for (a log inside the span, a traceparent, the record sent). */
  get traceId(): string {
    return (this.traceIdValue ??= newTraceId());
  }

  get spanId(): string {
    return (this.spanIdValue ??= newSpanId());
  }

  /** The span's attributes (empty, and not kept, for an unsampled span). */
  get metadata(): Metadata {
    return (this.attributes ??= {});
  }

  /** The attributes when there are some, without making an empty object. */
  attributesIfAny(): Metadata | undefined {
    return this.attributes;
  }

  get ended(): boolean {
    return this.done;
  }

  setAttribute(key: string, value: unknown): this {
    if (this.sampled) this.metadata[key] = value;
    return this;
  }

  setAttributes(values: Metadata): this {
    if (this.sampled) Object.assign(this.metadata, values);
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }

  /** Marks the span failed and keeps the error's type and message as attributes. */
  recordError(error: unknown): this {
    this.status = 'error';
    if (!this.sampled) return this;
    const err = error instanceof Error ? error : undefined;
    this.metadata['error.type'] = err?.name ?? typeof error;
    this.metadata['error.message'] = err?.message ?? String(error);
    return this;
  }

  end(options: SpanEndOptions = {}): void {
    if (this.done) return;
    this.done = true;
    if (options.status) this.status = options.status;
    if (this.sampled) {
      const mono = options.endTime === undefined && this.startMono !== undefined ? monotonic() : undefined;
      this.durationMs = mono !== undefined ? mono - this.startMono! : Math.max(0, (options.endTime ?? now()) - this.startTime);
    }
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
