import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { storeAmount, storeTimestamp } from '@devtrail/column-store/store-domain';
import { utc } from '../checks.ts';
import { sharedRequestFields } from '../request-fields.ts';
import type { ScoreEvent } from './event.ts';
import { MAX_SCORE_COMMENT, MAX_SCORE_ID, MAX_SCORE_LABEL, MAX_SCORE_NAME, type ScoreDataType } from './limits.ts';

// POST /ingest/scores: one score on an LLM call, a trace (or a span of it), a session or a
// user (docs/api.md). Its type follows its value unless given: a number is numeric, a string
// categorical, true or false boolean. Every field is bounded (limits.ts); what the column
// store would refuse (a value not finite, a time it cannot hold) is a 400 here.

const scoreId = z.string().min(1).max(MAX_SCORE_ID);
const target = z.string().max(MAX_SCORE_ID).optional();

/** A score's fields, before the checks that tie them together. */
export const scoreFields = z.object({
  ...sharedRequestFields,
  id: scoreId.optional(),
  name: z.string().min(1).max(MAX_SCORE_NAME),
  value: z.union([storeAmount, z.string().min(1).max(MAX_SCORE_LABEL), z.boolean()]),
  data_type: z.enum(['numeric', 'categorical', 'boolean']).optional(),
  /** A numeric score's label too (an evaluator's verdict beside its number). */
  label: z.string().min(1).max(MAX_SCORE_LABEL).optional(),
  comment: z.string().max(MAX_SCORE_COMMENT).optional(),
  call_id: target,
  trace_id: target,
  span_id: target,
  session_id: target,
  user_id: target,
  timestamp: storeTimestamp.optional(),
  /** api (default) or eval (an evaluator's verdict); annotation is the dashboard's own (docs/api.md). */
  source: z.enum(['api', 'eval']).optional(),
});
type ScoreFields = z.infer<typeof scoreFields>;

export const scoreSchema = scoreFields.superRefine((s, ctx) => checkScore(s, ctx));

/** What a score's fields must agree on: something it scores, and a value of its type. */
export function checkScore(s: Pick<ScoreFields, 'call_id' | 'trace_id' | 'span_id' | 'session_id' | 'user_id' | 'value' | 'data_type'>, ctx: z.RefinementCtx): void {
  if (!s.call_id && !s.trace_id && !s.session_id && !s.user_id) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['call_id'], message: 'A score needs what it scores: call_id, trace_id, session_id or user_id' });
  }
  if (s.span_id && !s.trace_id) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['span_id'], message: 'span_id needs its trace_id' });
  const type = dataTypeOf(s);
  const fits =
    type === 'numeric'
      ? typeof s.value === 'number'
      : type === 'categorical'
        ? typeof s.value === 'string'
        : typeof s.value === 'boolean' || s.value === 0 || s.value === 1;
  if (!fits) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['value'], message: `A ${type} score's value must be ${VALUE_OF[type]}` });
}

const VALUE_OF: Record<ScoreDataType, string> = {
  numeric: 'a finite number',
  categorical: `a string of 1 to ${MAX_SCORE_LABEL} characters`,
  boolean: 'true, false, 1 or 0',
};

export type ScoreInput = z.infer<typeof scoreSchema>;

function dataTypeOf(s: Pick<ScoreInput, 'value' | 'data_type'>): ScoreDataType {
  return s.data_type ?? (typeof s.value === 'number' ? 'numeric' : typeof s.value === 'string' ? 'categorical' : 'boolean');
}

/** A score's number and text as stored (event.ts says what each holds per type). */
export function scoreValues(type: ScoreDataType, value: number | string | boolean, label = ''): { value: number; label: string } {
  if (type === 'boolean') return { value: value === true || value === 1 ? 1 : 0, label: value === true || value === 1 ? 'true' : 'false' };
  if (type === 'categorical') return { value: 0, label: String(value) };
  return { value: Number(value), label: label };
}

/** The score's event; `extra` is what only devtrail itself sets (an annotation's source and author). */
export function scoreToEvent(s: ScoreInput, now: string, extra: { source?: ScoreEvent['source']; author?: string } = {}): ScoreEvent {
  const type = dataTypeOf(s);
  return {
    service: s.service,
    environment: s.environment,
    release: s.release ?? '',
    timestamp: s.timestamp ? utc(s.timestamp) : now,
    id: s.id ?? randomUUID(),
    name: s.name,
    data_type: type,
    ...scoreValues(type, s.value, s.label),
    comment: s.comment ?? '',
    call_id: s.call_id ?? '',
    trace_id: s.trace_id ?? '',
    span_id: s.span_id ?? '',
    session_id: s.session_id ?? '',
    user_id: s.user_id ?? '',
    source: extra.source ?? s.source ?? 'api',
    author: extra.author ?? '',
  };
}
