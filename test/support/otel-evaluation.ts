// A GenAI call and an evaluator's verdict on it, through the real OpenTelemetry JS SDK: the
// call a span (OTLP/HTTP protobuf), the verdict a gen_ai.evaluation.result log record in the
// span's context (docs/otlp.md, "Evaluation events").
import { context, trace, SpanKind } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';

export interface Evaluated {
  traceId: string;
  spanId: string;
}

/** One chat call in session `session` for `user`, and its evaluation `name` = `value` with `label` and an explanation. */
export async function emitEvaluatedCall(
  baseUrl: string,
  key: string,
  o: { session: string; user: string; name: string; value: number; label: string; explanation: string },
): Promise<Evaluated> {
  const headers = { authorization: `Bearer ${key}` };
  const resource = resourceFromAttributes({ 'service.name': 'support-bot' });
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${baseUrl}/v1/traces`, headers }))],
  });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${baseUrl}/v1/logs`, headers }) })],
  });
  const span = tracerProvider.getTracer('genai').startSpan('chat gpt-4o-mini', {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'session.id': o.session,
      'enduser.id': o.user,
    },
  });
  span.end();
  loggerProvider.getLogger('evaluator').emit({
    eventName: 'gen_ai.evaluation.result',
    attributes: {
      'gen_ai.evaluation.name': o.name,
      'gen_ai.evaluation.score.value': o.value,
      'gen_ai.evaluation.score.label': o.label,
      'gen_ai.evaluation.explanation': o.explanation,
    },
    context: trace.setSpan(context.active(), span),
  });
  await tracerProvider.forceFlush();
  await loggerProvider.forceFlush();
  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
  return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
}
