import { eachSpan, hexId, numberAttr, spanAttributes, spanTimes, stringAttr, type Span, type TraceRequest } from '@devtrail/otlp';
import type { z } from 'zod';
import type { OtlpOptions, OtlpPart, OtlpUnit } from '../kind.ts';
import type { llmUsageSchema } from './request.ts';
import { spanConversation } from './otlp-content.ts';
import { isConversationKey } from './conversation-keys.ts';
import { PROMPT_ATTRIBUTES } from './prompt-link.ts';

// OpenTelemetry GenAI semantic conventions (gen_ai.*) on a span -> a native LLM usage
// body (POST /ingest/llm). The older attribute names (gen_ai.system, prompt/completion
// tokens) are read when the current ones are absent. docs/otlp.md ("GenAI spans"). The
// conversation is read by otlp-content.ts; who and what the call was for (enduser.id,
// session.id, the prompt it used (prompt-link.ts) and the attributes the project chose) go
// into the metadata.

type LlmUsageBody = z.input<typeof llmUsageSchema>;

export const GEN_AI = {
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  provider: ['gen_ai.provider.name', 'gen_ai.system'],
  operation: 'gen_ai.operation.name',
  inputTokens: ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens'],
  outputTokens: ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens'],
  /** Of the input tokens, those read from the prompt cache (the conventions', OpenLLMetry's, OpenInference's). */
  cachedInputTokens: ['gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens', 'llm.token_count.prompt_details.cache_read'],
} as const;

/** Attributes every call keeps in its metadata, from the span or else its resource: who and which session. */
export const ATTRIBUTION = ['enduser.id', 'session.id'] as const;

export interface GenAiSpan {
  name: string;
  traceId?: string;
  spanId?: string;
  durationMs: number;
  attributes: Record<string, unknown>;
  /** The resource's attributes (those not mapped to service, environment, release). */
  resource?: Record<string, unknown>;
  events?: Span['events'];
}

const firstString = (a: Record<string, unknown>, keys: readonly string[]) => keys.map((k) => stringAttr(a, k)).find((v) => v !== undefined && v !== '');
const firstNumber = (a: Record<string, unknown>, keys: readonly string[]) => keys.map((k) => numberAttr(a, k)).find((v) => v !== undefined);

/** The LLM usage body for a span that names a model (request or response); undefined for other spans. */
/** The model of a GenAI span: the response model is the one that actually answered (often a dated version of the request's). */
const genAiModel = (a: Record<string, unknown>) => firstString(a, [GEN_AI.responseModel, GEN_AI.requestModel]);

export function genAiUsage(
  span: GenAiSpan,
  shared: { service?: string; environment?: string; release?: string },
  options: OtlpOptions = { llmAttributes: [] },
): LlmUsageBody | undefined {
  const a = span.attributes;
  const model = genAiModel(a);
  if (model === undefined) return undefined;
  const metadata: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (k.startsWith('gen_ai.') && !isConversationKey(k)) metadata[k] = v;
  for (const k of [...ATTRIBUTION, ...PROMPT_ATTRIBUTES, ...options.llmAttributes]) {
    const v = Object.hasOwn(a, k) ? a[k] : span.resource && Object.hasOwn(span.resource, k) ? span.resource[k] : undefined;
    if (v !== undefined && !Object.hasOwn(metadata, k)) Object.defineProperty(metadata, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const { input, output } = spanConversation(a, span.events);
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
    cached_input_tokens: firstNumber(a, GEN_AI.cachedInputTokens),
    latency_ms: span.durationMs,
    metadata,
    ...(input.length > 0 && { input }),
    ...(output.length > 0 && { output }),
  };
}

/** One usage record per GenAI span the span kind can take, at the span's end (linked by trace and span id). */
export const llmFromOtlp: OtlpPart<TraceRequest> = {
  signal: 'traces',
  primary: false,
  map(request, options) {
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
        {
          name,
          traceId: hexId(span.traceId),
          spanId: hexId(span.spanId),
          durationMs: times.durationMs,
          attributes: spanAttributes(span),
          resource: ctx.rest,
          events: span.events,
        },
        ctx.shared,
        options,
      );
      if (body) units.push({ body, label: `LLM usage of span ${JSON.stringify(body.operation)}`, timestamp: times.endTime });
    });
    return { units, rejected: [] };
  },
};
