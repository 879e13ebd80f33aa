import type { z } from 'zod';
import type { LogsRequest, TraceRequest } from '@devtrail/otlp';
import { KINDS, type errorReportSchema, type llmUsageSchema, type logBatchSchema, type spanSchema } from '../src/index.ts';

// The kinds' OTLP mappings, gathered per signal as the tests read them: the log kind's
// batches, and a traces request's spans with what the LLM and error kinds derive from them.

export function mapLogs(request: LogsRequest) {
  const { units, rejected } = KINDS.log.otlp!.map(request as never);
  return { batches: units.map((u) => u.body as z.input<typeof logBatchSchema>), rejected: rejected.map((reason) => ({ reason })) };
}

export function mapTraces(request: TraceRequest) {
  const spans = KINDS.span.otlp!.map(request as never);
  const timed = <B>(kind: 'llm' | 'error') => KINDS[kind].otlp!.map(request as never).units.map((u) => ({ body: u.body as B, timestamp: u.timestamp }));
  return {
    spans: spans.units.map((u) => u.body as z.input<typeof spanSchema>),
    llm: timed<z.input<typeof llmUsageSchema>>('llm'),
    errors: timed<z.input<typeof errorReportSchema>>('error'),
    rejected: spans.rejected.map((reason) => ({ reason })),
  };
}
