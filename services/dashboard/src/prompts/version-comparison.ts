import { z } from 'zod';
import { rangeOrDefault, type TimeRange } from '@devtrail/column-store';
import { readPromptVersionUsage, type PromptVersionUsage } from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { pricesOf } from '../api/llm-estimates.ts';
import { LLM_COST_NOTES } from '../api/llm-schemas.ts';
import type { ReadDeps } from '../api/read-deps.ts';

// A version beside the one before it (docs/api.md, "GET /api/projects/:id/prompts/:name/versions/
// :version/comparison"): the figures of the calls linked to each (libs/kinds llm/prompt-link.ts)
// over one range. Every figure of a version comes from versionFigures; a further source (a
// per-version average of scores) is one more read there, over the same calls (libs/kinds
// promptCallsWhere gives their conditions and the version of each), merged into each row by
// version, and one more field of versionFiguresSchema.

/** Inline, not a named component: `previous` is this or null, which a $ref with nullable does not say in OpenAPI 3.1. */
export const versionFiguresSchema = z.object({
  version: z.number().int(),
  calls: z.number().int().openapi({ description: 'Calls in the range whose metadata names this prompt and version.' }),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().openapi({ description: `Total. ${LLM_COST_NOTES.cost_usd}` }),
  estimated_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.estimated_cost_usd }),
  cost_per_call_usd: z.number().openapi({ description: 'cost_usd / calls (0 without calls).' }),
  latency_p50_ms: z.number(),
  latency_p95_ms: z.number(),
});
export type VersionFigures = PromptVersionUsage;
sameKeys<z.infer<typeof versionFiguresSchema>, VersionFigures>(true);

/** The figures of each version asked for, in that order. */
export async function versionFigures(d: ReadDeps, q: { projectId: string; prompt: string; versions: number[]; range: Partial<TimeRange> }): Promise<VersionFigures[]> {
  const retentionDays = (await d.retentionOf(q.projectId)).llm;
  return readPromptVersionUsage(d.searches, {
    projectId: q.projectId,
    retentionDays,
    prices: pricesOf(d.prices),
    range: rangeOrDefault(q.range),
    prompt: q.prompt,
    versions: q.versions,
  });
}
