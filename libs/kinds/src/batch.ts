import { z } from 'zod';
import { isPlainObject } from './checks.ts';
import type { OtlpUnit } from './kind.ts';
import { EVENT_KINDS, kindOf, type EventKind } from './registry.ts';
import { sharedRequestFields } from './request-fields.ts';

// POST /ingest/batch (docs/api.md#batch): records of every kind in one request, for SDKs that
// batch. Each section is named after its kind (`logs`, `errors`, `spans`, `llm`) and each record
// in it is what the kind's own route takes (a log entry; a whole error report, span or LLM
// record), so the kinds' schemas stay the one source of validation; the top-level service,
// environment and release are every record's defaults.

export const BATCH_PATH = '/ingest/batch';
/** Records per section: the logs route's own limit, for every kind. */
export const MAX_BATCH_SECTION = 1000;

const sections = Object.fromEntries(EVENT_KINDS.map((kind) => [kindOf(kind).name, z.array(z.unknown()).max(MAX_BATCH_SECTION).optional()]));

/** The request's shape; the records are checked one by one by their kinds. */
export const batchSchema = z.object({ ...sharedRequestFields, ...sections }).refine((b) => EVENT_KINDS.some((kind) => (sectionOf(b, kind)?.length ?? 0) > 0), {
  message: `At least one record, in ${EVENT_KINDS.map((k) => kindOf(k).name).join(', ')}`,
});

export type Batch = z.infer<typeof batchSchema>;

function sectionOf(b: object, kind: EventKind): unknown[] | undefined {
  return (b as Record<string, unknown[] | undefined>)[kindOf(kind).name];
}

/** Each kind's native bodies in a batch: a whole section for a kind whose body carries many records, one body per record otherwise. */
export function batchUnits(batch: Batch): Array<{ kind: EventKind; unit: OtlpUnit }> {
  const shared = { service: batch.service, environment: batch.environment, ...(batch.release === undefined ? {} : { release: batch.release }) };
  const out: Array<{ kind: EventKind; unit: OtlpUnit }> = [];
  for (const kind of EVENT_KINDS) {
    const k = kindOf(kind);
    const items = sectionOf(batch, kind);
    if (!items?.length) continue;
    if (k.batchField) out.push({ kind, unit: { body: { ...shared, [k.batchField]: items }, label: k.name } });
    else items.forEach((item, i) => out.push({ kind, unit: { body: isPlainObject(item) ? { ...shared, ...item } : item, label: `${k.name} ${i}` } }));
  }
  return out;
}
