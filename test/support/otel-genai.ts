// Conversations as GenAI instrumentations send them, through the real OpenTelemetry JS SDK
// and its OTLP/HTTP protobuf exporter: the content in span attributes and in span events, in
// the current and the older spellings (docs/otlp.md, "Conversation"). Each call is one span,
// ended before the next starts, so their order is the order of the calls.
import { SpanKind, type Attributes } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';

export interface GenAiCall {
  name: string;
  attributes: Attributes;
  events?: Array<{ name: string; attributes: Attributes }>;
}

const usage = (model: string, input: number, output: number): Attributes => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': model,
  'gen_ai.usage.input_tokens': input,
  'gen_ai.usage.output_tokens': output,
});

/** The four ways in, each a call of its own; `marker` makes a run's texts its own. */
export function genAiCalls(marker: string): Record<'current' | 'olderInEvents' | 'indexed' | 'perMessageEvents', GenAiCall> {
  return {
    // Current conventions, in attributes; who and which session, and two more attributes (one chosen by the project).
    current: {
      name: 'chat current',
      attributes: {
        ...usage('gpt-4o-mini', 1200, 300),
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: `You are the support bot ${marker}.` }]),
        'gen_ai.input.messages': JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: `My card is 4111 1111 1111 1111, write to ann@example.com ${marker}` }] },
        ]),
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'tool_call', id: 'call-1', name: 'lookup_order', arguments: { order: 42 } }], finish_reason: 'tool_call' },
        ]),
        'session.id': `s1-${marker}`,
        'enduser.id': `alice-${marker}`,
        feature: 'support-bot',
        tenant: 'acme',
      },
    },
    // The older gen_ai.prompt / gen_ai.completion, on the gen_ai.content.* events; the user from the resource.
    olderInEvents: {
      name: 'chat older',
      attributes: { ...usage('gpt-4o', 800, 100), 'session.id': `s1-${marker}` },
      events: [
        { name: 'gen_ai.content.prompt', attributes: { 'gen_ai.prompt': JSON.stringify([{ role: 'user', content: `Summarise ticket 42 ${marker}` }]) } },
        { name: 'gen_ai.content.completion', attributes: { 'gen_ai.completion': `Ticket 42 is about billing ${marker}.` } },
      ],
    },
    // OpenLLMetry's indexed attributes: a tool call and its result.
    indexed: {
      name: 'chat indexed',
      attributes: {
        ...usage('gpt-4o-mini', 50, 20),
        'gen_ai.prompt.0.role': 'user',
        'gen_ai.prompt.0.content': `Weather in Paris ${marker}?`,
        'gen_ai.prompt.1.role': 'assistant',
        'gen_ai.prompt.1.tool_calls.0.id': 'w1',
        'gen_ai.prompt.1.tool_calls.0.name': 'weather',
        'gen_ai.prompt.1.tool_calls.0.arguments': '{"city":"Paris"}',
        'gen_ai.prompt.2.role': 'tool',
        'gen_ai.prompt.2.tool_call_id': 'w1',
        'gen_ai.prompt.2.content': '18 degrees',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.content': `It is 18 degrees in Paris ${marker}.`,
      },
    },
    // Current content on the inference details event, and one event per message.
    perMessageEvents: {
      name: 'chat events',
      attributes: usage('gpt-4o-mini', 10, 5),
      events: [
        { name: 'gen_ai.system.message', attributes: { content: 'Answer in French.' } },
        { name: 'gen_ai.user.message', attributes: { content: `Hello ${marker}` } },
        { name: 'gen_ai.choice', attributes: { index: 0, finish_reason: 'stop', message: JSON.stringify({ role: 'assistant', content: `Bonjour ${marker}` }) } },
      ],
    },
  };
}

/** Sends the calls in order as GenAI spans; answers each export's result code (0: success). */
export async function emitGenAi(service: string, baseUrl: string, key: string, calls: GenAiCall[], resource: Attributes = {}): Promise<number[]> {
  const results: number[] = [];
  const exporter = new OTLPTraceExporter({ url: `${baseUrl}/v1/traces`, headers: { authorization: `Bearer ${key}` } });
  const recording = {
    export: (spans: Parameters<OTLPTraceExporter['export']>[0], cb: Parameters<OTLPTraceExporter['export']>[1]) =>
      exporter.export(spans, (r) => {
        results.push(r.code);
        cb(r);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: async () => {},
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, ...resource }),
    spanProcessors: [new SimpleSpanProcessor(recording)],
  });
  const tracer = provider.getTracer('genai-instrumentation', '1.0.0');
  for (const c of calls) {
    const span = tracer.startSpan(c.name, { kind: SpanKind.CLIENT, attributes: c.attributes });
    for (const e of c.events ?? []) span.addEvent(e.name, e.attributes);
    await new Promise((r) => setTimeout(r, 5));
    span.end();
    await new Promise((r) => setTimeout(r, 5)); // the next call starts after this one ended
  }
  await provider.forceFlush();
  await provider.shutdown();
  return results;
}
