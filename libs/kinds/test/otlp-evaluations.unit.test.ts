import { describe, expect, it } from 'vitest';
import { KINDS, scoreSchema } from '@devtrail/kinds';
import { decodeLogsRequest } from '@devtrail/otlp';
import { logsRequest, SPAN_ID, str, T0_ISO, T0_NS, TRACE_ID } from '../../otlp/test/requests.ts';

// gen_ai.evaluation.result log records -> scores, every row of docs/otlp.md's "Evaluation
// events" table: a value, a label alone, the record's trace and span, session and user, and
// the records left out (no name, no value, another event, nothing to score).
const map = (records: unknown[]) => KINDS.score.otlp!.map(decodeLogsRequest(logsRequest(records), 'json') as never);
const dbl = (key: string, value: number) => ({ key, value: { doubleValue: value } });
const evaluation = (attributes: unknown[], more: Record<string, unknown> = {}) => ({ timeUnixNano: T0_NS, eventName: 'gen_ai.evaluation.result', attributes, ...more });

describe('OTLP evaluation events', () => {
  it('become scores on the record’s span, with the value, label and explanation, that the scores route takes', () => {
    const out = map([
      evaluation(
        [
          str('gen_ai.evaluation.name', 'relevance'),
          dbl('gen_ai.evaluation.score.value', 0.8),
          str('gen_ai.evaluation.score.label', 'pass'),
          str('gen_ai.evaluation.explanation', 'on topic'),
        ],
        {
          traceId: TRACE_ID,
          spanId: SPAN_ID,
        },
      ),
      // The label alone is a category; the event name as an attribute counts too; a session and a user but no trace.
      {
        timeUnixNano: T0_NS,
        attributes: [
          str('event.name', 'gen_ai.evaluation.result'),
          str('gen_ai.evaluation.name', 'tone'),
          str('gen_ai.evaluation.score.label', 'rude'),
          str('session.id', 'chat-7'),
          str('enduser.id', 'u-1'),
        ],
      },
    ]);
    expect(out.rejected).toEqual([]);
    expect(out.units.map((u) => u.body)).toEqual([
      {
        service: 'checkout',
        name: 'relevance',
        value: 0.8,
        data_type: 'numeric',
        label: 'pass',
        comment: 'on topic',
        trace_id: TRACE_ID,
        span_id: SPAN_ID,
        timestamp: T0_ISO,
        source: 'eval',
      },
      { service: 'checkout', name: 'tone', value: 'rude', data_type: 'categorical', session_id: 'chat-7', user_id: 'u-1', timestamp: T0_ISO, source: 'eval' },
    ]);
    for (const u of out.units) expect(scoreSchema.safeParse(u.body).success).toBe(true);
  });

  it('leave out records that are not evaluations, and say why for evaluations they cannot read', () => {
    const out = map([
      { timeUnixNano: T0_NS, eventName: 'order.slow', attributes: [str('gen_ai.evaluation.name', 'x'), dbl('gen_ai.evaluation.score.value', 1)] },
      evaluation([dbl('gen_ai.evaluation.score.value', 1)], { traceId: TRACE_ID }),
      evaluation([str('gen_ai.evaluation.name', 'x')], { traceId: TRACE_ID }),
    ]);
    expect(out.units).toEqual([]);
    expect(out.rejected).toEqual(['evaluation event: no gen_ai.evaluation.name', 'evaluation event: no gen_ai.evaluation.score.value or gen_ai.evaluation.score.label']);
    // One that names nothing to score maps, and the scores route refuses it (the log is kept either way).
    const [unit] = map([evaluation([str('gen_ai.evaluation.name', 'x'), dbl('gen_ai.evaluation.score.value', 1)])]).units;
    expect(scoreSchema.safeParse(unit.body).success).toBe(false);
  });
});
