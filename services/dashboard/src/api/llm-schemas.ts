import { z } from 'zod';
import { COST_SOURCES, KINDS, type LlmCallFilter, type LlmMetadataRow, type LlmSession, type LlmUsageSummary } from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { apiTimeRange } from './api-schemas.ts';
import type { llmFiltersQuery } from './explore-schemas.ts';
import { pricesOf } from './llm-estimates.ts';
import type { ReadDeps } from './read-deps.ts';
import { linkedScore, scoreAverage } from '../scores/schemas.ts';

// The LLM reads' answer schemas and notes, and the filter every LLM read takes from its
// query (libs/kinds/src/llm/call-filter.ts), shared by the LLM routes' files.

/** What each LLM cost figure is (docs/otlp.md#llm-cost). */
export const LLM_COST_NOTES = {
  cost_usd:
    'Effective cost in USD: the cost the client sent where it sent one (not 0), else the estimate from the tokens and the price table (libs/config/data/llm-prices.json or LLM_PRICES_FILE), else 0.',
  sent_cost_usd: 'The part of cost_usd the clients sent.',
  estimated_cost_usd: 'The part of cost_usd that is estimated from the price table.',
};
export const SCORE_FILTER_NOTE =
  "<name><op><value>, op one of = != > >= < <= (e.g. helpfulness>=0.5, user_feedback=false, tone=rude): calls with a score of that name (their own or their trace's) whose value meets it; a number compares the value, anything else the label.";
export const LLM_SEARCH_NOTE =
  'The logs search syntax (docs/dashboard.md, "Search syntax") over the calls: words and "quoted phrases" match the conversation (input and output) or the metadata; message:word the conversation only; key:value a metadata key (trace_id, span_id, enduser.id, ...); service, environment, release and model their columns.';

export const llmSummary = z
  .object({
    day: z.string().openapi({ example: '2025-01-31' }),
    model: z.string(),
    provider: z.string(),
    service: z.string(),
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cached_input_tokens: z.number().int().openapi({ description: 'Of input_tokens, those read from the prompt cache (priced at the cached-input price).' }),
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    sent_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.sent_cost_usd }),
    estimated_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.estimated_cost_usd }),
    estimated_calls: z.number().int().openapi({ description: 'Calls whose cost is the estimate.' }),
    unpriced_calls: z.number().int().openapi({ description: 'Calls sent without a cost, of a model the price table does not price (counted as 0).' }),
    latency_p50_ms: z.number(),
    latency_p95_ms: z.number(),
  })
  .openapi('LlmUsageSummary');
sameKeys<z.infer<typeof llmSummary>, LlmUsageSummary>(true);
export const llmCall = KINDS.llm.record
  .extend({
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    sent_cost_usd: z.number().openapi({ description: 'The cost the client sent (0: none).' }),
    cost_source: z.enum(COST_SOURCES).openapi({ description: "Which cost cost_usd is: as sent, the price table's estimate, or 0 for a model the table does not price." }),
    estimated_cost_usd: z
      .number()
      .nullable()
      .openapi({ description: "The price table's estimate of the call (also when a cost was sent); null for a model it does not price." }),
    content_truncated: z.boolean().openapi({ description: 'Whether input or output were cut at the cap (docs/otlp.md, "Conversation").' }),
    scores: z.array(linkedScore).openapi({ description: 'The call\'s scores (its own, then its trace\'s), each its latest version (docs/api.md, "Scores").' }),
  })
  .openapi('LlmCallRecord');
export const llmSession = z
  .object({
    session: z.string().openapi({ description: 'The metadata session.id its calls share, else their gen_ai.conversation.id.' }),
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    first_at: z.string().datetime(),
    last_at: z.string().datetime(),
    user: z.string().nullable().openapi({ description: 'The enduser.id of its first call that carries one; null: none does.' }),
    scores: z.array(scoreAverage).openapi({ description: 'Per score name: scores on the session, its calls and their traces (docs/api.md, "Scores").' }),
  })
  .openapi('LlmSession');
sameKeys<Omit<z.infer<typeof llmSession>, 'scores'>, LlmSession>(true);
export const metadataRow = z.object({
  value: z.string().nullable().openapi({ description: 'A string as it is, another scalar as its JSON text; null: calls without the key.' }),
  calls: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
  estimated_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.estimated_cost_usd }),
  latency_p50_ms: z.number(),
  latency_p95_ms: z.number(),
});
sameKeys<z.infer<typeof metadataRow>, LlmMetadataRow>(true);
export const series = z.array(z.number());

export type LlmFiltersQuery = Partial<z.output<typeof llmFiltersQuery>>;
export const llmFilter = async (d: ReadDeps, projectId: string, q: LlmFiltersQuery): Promise<LlmCallFilter> => ({
  projectId,
  retentionDays: (await d.retentionOf(projectId)).llm,
  prices: pricesOf(d.prices),
  range: apiTimeRange(q),
  model: q.model,
  service: q.service,
  metadata: q.metadata,
  search: q.q,
  session: q.session,
  score: q.score,
  scoreRetentionDays: (await d.retentionOf(projectId)).score,
});
