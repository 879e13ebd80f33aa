import { eachSpan, hexId, numberAttr, spanAttributes, spanTimes, stringAttr, type TraceRequest } from '@devtrail/otlp';
import type { z } from 'zod';
import type { OtlpPart, OtlpUnit } from '../kind.ts';
import type { llmUsageSchema } from './request.ts';

// OpenTelemetry GenAI semantic conventions (gen_ai.*) on a span -> a native LLM usage
// body (POST /ingest/llm). The older attribute names (gen_ai.system, prompt/completion
// tokens) are read when the current ones are absent. docs/otlp.md ("GenAI spans").

type LlmUsageBody = z.input<typeof llmUsageSchema>;

export const GEN_AI = {
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  provider: ['gen_ai.provider.name', 'gen_ai.system'],
  operation: 'gen_ai.operation.name',
  inputTokens: ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'],
  outputTokens: ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'],
} as const;

// Message content can be large and is already on the span; the LLM record keeps the rest.
const CONTENT = new Set(['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.prompt', 'gen_ai.completion']);

export interface GenAiSpan {
  name: string;
  traceId?: string;
  spanId?: string;
  durationMs: number;
  attributes: Record<string, unknown>;
}

const firstString = (a: Record<string, unknown>, keys: readonly string[]) => keys.map((k) => stringAttr(a, k)).find((v) => v !== undefined && v !== '');
const firstNumber = (a: Record<string, unknown>, keys: readonly string[]) => keys.map((k) => numberAttr(a, k)).find((v) => v !== undefined);

/** The LLM usage body for a span that names a model (request or response); undefined for other spans. */
/** The model of a GenAI span: the response model is the one that actually answered (often a dated version of the request's). */
const genAiModel = (a: Record<string, unknown>) => firstString(a, [GEN_AI.responseModel, GEN_AI.requestModel]);

export function genAiUsage(span: GenAiSpan, shared: { service?: string; environment?: string; release?: string }): LlmUsageBody | undefined {
  const a = span.attributes;
  const model = genAiModel(a);
  if (model === undefined) return undefined;
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (k.startsWith('gen_ai.') && !CONTENT.has(k)) metadata[k] = v;
  if (span.traceId) metadata.trace_id = span.traceId;
  if (span.spanId) metadata.span_id = span.spanId;
  metadata['otel.span_name'] = span.name;
  return {
    ...shared,
    model,
    provider: firstString(a, GEN_AI.provider) ?? 'unknown',
    operation: stringAttr(a, GEN_AI.operation) || span.name,
    input_tokens: firstNumber(a, GEN_AI.inputTokens) ?? 0,
    output_tokens: firstNumber(a, GEN_AI.outputTokens) ?? 0,
    latency_ms: span.durationMs,
    metadata,
  };
}

/** One usage record per GenAI span the span kind can take, at the span's end (linked by trace and span id). */
export const llmFromOtlp: OtlpPart<TraceRequest> = {
  signal: 'traces',
  primary: false,
  map(request) {
    const units: OtlpUnit[] = [];
    eachSpan(request, (span, ctx) => {
      if (genAiModel(spanAttributes(span)) === undefined) return; // not a GenAI span: nothing more to compute
      let times: ReturnType<typeof spanTimes>;
      try {
        times = spanTimes(span);
      } catch {
        return; // the span kind refuses the span, and says why
      }
      const name = span.name ?? '';
      const body = genAiUsage(
        { name, traceId: hexId(span.traceId), spanId: hexId(span.spanId), durationMs: times.durationMs, attributes: spanAttributes(span) },
        ctx.shared,
      );
      if (body) units.push({ body, label: `LLM usage of span ${JSON.stringify(body.operation)}`, timestamp: times.endTime });
    });
    return { units, rejected: [] };
  },
};
