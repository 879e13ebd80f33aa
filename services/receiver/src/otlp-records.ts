import {
  errorReportSchema,
  errorToEvent,
  fastLogsToEvents,
  llmToEvent,
  llmUsageSchema,
  logBatchSchema,
  logEntrySchema,
  logsToEvents,
  spanSchema,
  spanToEvent,
  type EventDataByKind,
  type EventKind,
} from '@devtrail/kinds';
import type { MappedLogs, MappedTraces, MappingRejection, Timed } from '@devtrail/otlp';
import type { ZodError } from 'zod';

// Mapped OTLP records -> events, through the native endpoints' own schemas and
// normalisers (the one source of validation rules). A record a native request could
// not carry is rejected on its own; the rest of the request goes on (OTLP partial success).

export type EventsByKind = { [K in EventKind]?: Array<EventDataByKind[K]> };

export interface Accepted {
  events: EventsByKind;
  /** Records of the request's own signal (log records, spans) that were refused. */
  rejected: number;
  /** Why, for the partial-success error_message: the first few reasons, then a count. */
  reasons: string[];
}

const MAX_REASONS = 5;

class Outcome {
  readonly events: EventsByKind = {};
  rejected = 0;
  private readonly reasons: string[] = [];
  private more = 0;

  add<K extends EventKind>(kind: K, list: Array<EventDataByKind[K]>): void {
    if (list.length === 0) return;
    const into = (this.events[kind] ??= []) as Array<EventDataByKind[K]>;
    for (const e of list) into.push(e);
  }

  reason(text: string): void {
    if (this.reasons.length < MAX_REASONS) this.reasons.push(text);
    else this.more++;
  }

  result(): Accepted {
    const reasons = this.more > 0 ? [...this.reasons, `and ${this.more} more`] : this.reasons;
    return { events: this.events, rejected: this.rejected, reasons };
  }
}

const issue = (e: ZodError) => {
  const i = e.issues[0];
  return `${i.path.join('.') || '(root)'}: ${i.message}`;
};

const validTime = (t: string | undefined) => t !== undefined && logEntrySchema.shape.timestamp.safeParse(t).success;

/** The derived record's own time when it is one a log timestamp may carry, else the receive time. */
function timed<T extends { timestamp: string }>(event: T, t: Timed<unknown>): T {
  if (validTime(t.timestamp)) event.timestamp = new Date(t.timestamp!).toISOString();
  return event;
}

function mappingRejections(out: Outcome, rejections: MappingRejection[]): void {
  out.rejected += rejections.length;
  for (const r of rejections) out.reason(r.reason);
}

export function acceptLogs(mapped: MappedLogs, now: string): Accepted {
  const out = new Outcome();
  mappingRejections(out, mapped.rejected);
  for (const batch of mapped.batches) {
    // The whole batch through the native fast path; only a batch with a bad entry is
    // walked entry by entry (zod) to find which.
    const fast = fastLogsToEvents(batch, now);
    if (fast) {
      out.add('log', fast);
      continue;
    }
    const { logs, ...shared } = batch;
    logs.forEach((entry, i) => {
      const parsed = logBatchSchema.safeParse({ ...shared, logs: [entry] });
      if (parsed.success) out.add('log', logsToEvents(parsed.data, now));
      else {
        out.rejected++;
        out.reason(`log record ${i}: ${issue(parsed.error).replace(/^logs\.0\./, '')}`);
      }
    });
  }
  return out.result();
}

export function acceptTraces(mapped: MappedTraces, now: string): Accepted {
  const out = new Outcome();
  mappingRejections(out, mapped.rejected);
  mapped.spans.forEach((body, i) => {
    const parsed = spanSchema.safeParse(body);
    if (parsed.success) out.add('span', [spanToEvent(parsed.data)]);
    else {
      out.rejected++;
      out.reason(`span ${i} (${JSON.stringify(body.operation)}): ${issue(parsed.error)}`);
    }
  });
  // Derived records: a refusal is reported, but rejected_spans counts spans only.
  for (const t of mapped.llm) {
    const parsed = llmUsageSchema.safeParse(t.body);
    if (parsed.success) out.add('llm', [timed(llmToEvent(parsed.data, now), t)]);
    else out.reason(`LLM usage of span ${JSON.stringify(t.body.operation)}: ${issue(parsed.error)}`);
  }
  for (const t of mapped.errors) {
    const parsed = errorReportSchema.safeParse(t.body);
    if (parsed.success) out.add('error', [timed(errorToEvent(parsed.data, now), t)]);
    else out.reason(`exception event: ${issue(parsed.error)}`);
  }
  return out.result();
}
