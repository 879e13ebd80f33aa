import { attributesToObject, eachLogRecord, hexId, nanosToIso, numberAttr, stringAttr, type LogsRequest } from '@devtrail/otlp';
import type { z } from 'zod';
import type { OtlpPart, OtlpUnit } from '../kind.ts';
import type { scoreSchema } from './request.ts';

// OpenTelemetry GenAI evaluation events (gen_ai.evaluation.result, docs/otlp.md "Evaluation
// events") -> scores (POST /ingest/scores bodies) with source eval, on the span and trace the
// record names: the evaluated operation. The log record itself is kept as a log too.

type ScoreBody = z.input<typeof scoreSchema>;

export const EVALUATION = {
  event: 'gen_ai.evaluation.result',
  name: 'gen_ai.evaluation.name',
  value: 'gen_ai.evaluation.score.value',
  label: 'gen_ai.evaluation.score.label',
  explanation: 'gen_ai.evaluation.explanation',
} as const;

/** The score an evaluation's attributes give (a value, else a label), or why none. */
export function evaluationScore(a: Record<string, unknown>, link: { traceId?: string; spanId?: string; timestamp?: string }): ScoreBody | string {
  const name = stringAttr(a, EVALUATION.name);
  if (!name) return `no ${EVALUATION.name}`;
  const value = numberAttr(a, EVALUATION.value);
  const label = stringAttr(a, EVALUATION.label);
  if (value === undefined && !label) return `no ${EVALUATION.value} or ${EVALUATION.label}`;
  const session = stringAttr(a, 'session.id') || stringAttr(a, 'gen_ai.conversation.id');
  const user = stringAttr(a, 'enduser.id');
  const explanation = stringAttr(a, EVALUATION.explanation);
  return {
    name,
    ...(value !== undefined ? { value, data_type: 'numeric' as const, ...(label && { label }) } : { value: label as string, data_type: 'categorical' as const }),
    ...(explanation && { comment: explanation }),
    ...(link.traceId && { trace_id: link.traceId }),
    ...(link.traceId && link.spanId && { span_id: link.spanId }),
    ...(session && { session_id: session }),
    ...(user && { user_id: user }),
    ...(link.timestamp && { timestamp: link.timestamp }),
    source: 'eval',
  };
}

/** One score per evaluation log record; other records are not this kind's. */
export const scoreFromOtlp: OtlpPart<LogsRequest> = {
  signal: 'logs',
  primary: false,
  map(request) {
    const units: OtlpUnit[] = [];
    const rejected: string[] = [];
    eachLogRecord(request, (r, ctx) => {
      const a = attributesToObject(r.attributes);
      if (r.eventName !== EVALUATION.event && a['event.name'] !== EVALUATION.event) return;
      const timestamp = nanosToIso(r.timeUnixNano) ?? nanosToIso(r.observedTimeUnixNano);
      const body = evaluationScore(a, { traceId: hexId(r.traceId), spanId: hexId(r.spanId), timestamp });
      if (typeof body === 'string') rejected.push(`evaluation event: ${body}`);
      else units.push({ body: { ...ctx.shared, ...body }, label: `score ${JSON.stringify(body.name)}` });
    });
    return { units, rejected };
  },
};
