import { errorToEvent, llmToEvent, logsToEvents, spanToEvent } from '@devtrail/kinds';
import { newEnvelope } from '../../../test/support/envelopes.ts';
import type { Envelope } from '@devtrail/contract';

// Envelopes built the way the receiver builds them, for store and consumer suites.
export function sampleEnvelopes(projectId: string, n = 3): Envelope[] {
  const now = new Date().toISOString();
  const logs = logsToEvents(
    {
      service: 'api',
      environment: 'staging',
      release: 'v1',
      logs: Array.from({ length: n }, (_, i) => ({
        level: i % 2 ? 'error' : 'info',
        message: `hello ${i} <script>alert(1)</script>`,
        timestamp: new Date(Date.now() - i * 1000).toISOString(),
        metadata: { i, nested: { ok: true } },
        trace_id: 'trace-1',
        span_id: `span-${i}`,
        request_id: `req-${i}`,
        context: 'ctx',
      })),
    } as never,
    now,
  ).map((d) => newEnvelope('log', projectId, now, d));
  const err = (line: number) =>
    newEnvelope(
      'error',
      projectId,
      now,
      errorToEvent(
        {
          service: 'api',
          environment: 'production',
          error_message: `User ${line} missing`,
          stack_trace: `Error: x\n    at f (/a/b/c.js:${line}:1)`,
          severity: 'high',
          breadcrumbs: [],
        } as never,
        now,
      ),
    );
  const span = newEnvelope(
    'span',
    projectId,
    now,
    spanToEvent({
      service: 'api',
      environment: 'production',
      trace_id: 'trace-1',
      span_id: 'root',
      parent_span_id: '',
      operation: 'GET /x',
      start_time: now,
      duration_ms: 12,
      status: 'ok',
    } as never),
  );
  const llm = newEnvelope(
    'llm',
    projectId,
    now,
    llmToEvent(
      {
        service: 'api',
        environment: 'production',
        model: 'gpt-x',
        provider: 'openai',
        operation: 'chat',
        input_tokens: 10,
        output_tokens: 5,
        cost_usd: 0.25,
        latency_ms: 300,
      } as never,
      now,
    ),
  );
  return [...logs, err(1), err(2), span, llm];
}
