import { z } from 'zod';
import { rangeOrDefault, type TimeRange } from '@devtrail/column-store';
import { readPromptVersionUsage, scoresOfPromptVersions, type PromptVersionUsage, type ScoreAverage } from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { pricesOf } from '../api/llm-estimates.ts';
import { LLM_COST_NOTES } from '../api/llm-schemas.ts';
import type { ReadDeps } from '../api/read-deps.ts';
import { scoreAverage } from '../scores/schemas.ts';

// A version beside the one before it (docs/api.md, "GET /api/projects/:id/prompts/:name/versions/
// :version/comparison"): the figures of the calls linked to each (libs/kinds llm/prompt-link.ts)
// over one range. Every figure of a version comes from versionFigures: the calls' usage, and
// the average of each score name over the scores of those calls, their traces and sessions.

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
  scores: z
    .array(scoreAverage)
    .openapi({ description: 'Per score name: the scores of these calls, their traces and sessions (docs/api.md, "Scores"); average null for a categorical one.' }),
});
export type VersionFigures = PromptVersionUsage & { scores: ScoreAverage[] };
sameKeys<z.infer<typeof versionFiguresSchema>, VersionFigures>(true);

/** The figures of each version asked for, in that order. */
export async function versionFigures(d: ReadDeps, q: { projectId: string; prompt: string; versions: number[]; range: Partial<TimeRange> }): Promise<VersionFigures[]> {
  const kept = await d.retentionOf(q.projectId);
  const range = rangeOrDefault(q.range);
  const [usage, scores] = await Promise.all([
    readPromptVersionUsage(d.searches, { projectId: q.projectId, retentionDays: kept.llm, prices: pricesOf(d.prices), range, prompt: q.prompt, versions: q.versions }),
    scoresOfPromptVersions(d.searches, { projectId: q.projectId, retentionDays: kept.score, callRetentionDays: kept.llm, range }, q.prompt, q.versions),
  ]);
  return usage.map((u) => ({ ...u, scores: scores.get(String(u.version)) ?? [] }));
}
