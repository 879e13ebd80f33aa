import type { z } from 'zod';
import type { errorReportSchema, llmUsageSchema, logBatchSchema, logEntrySchema, spanSchema } from '@devtrail/kinds';

// What the mappers produce: request bodies exactly as devtrail's native endpoints take
// them (libs/contract/src/schemas.ts), before validation. The receiver validates each one
// with the same schema as /ingest/*, so OTLP can never store what a native request could not.

export type LogBatchBody = z.input<typeof logBatchSchema>;
export type LogEntryBody = z.input<typeof logEntrySchema>;
export type SpanBody = z.input<typeof spanSchema>;
export type LlmUsageBody = z.input<typeof llmUsageSchema>;
export type ErrorReportBody = z.input<typeof errorReportSchema>;

/**
 * An error report or LLM record derived from a span, with the time it happened: the native
 * bodies have no time field (the receiver stamps the receive time), but an exporter may send
 * seconds after the fact, so the span's own time is kept beside the body.
 */
export interface Timed<B> {
  body: B;
  timestamp?: string;
}

/** A record the mapper could not express as a native body (for example a time no date holds). */
export interface MappingRejection {
  reason: string;
}
