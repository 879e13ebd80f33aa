import { z } from 'zod';
import {
  KINDS,
  MAX_SCORE_COMMENT,
  MAX_SCORE_ID,
  MAX_SCORE_LABEL,
  MAX_SCORE_NAME,
  SCORE_DATA_TYPES,
  SCORE_SOURCES,
  checkScore,
  scoreFields,
  type LinkedScore,
  type ScoreAverage,
  type ScoreSummary,
} from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { queryInt, rangeQuery } from '../api/api-schemas.ts';

// The scores API's inputs and answers (docs/api.md, "Scores"), shared by the scores routes and
// the LLM routes that show scores beside calls and sessions.

const id = z.string().min(1).max(MAX_SCORE_ID);
export const scoresQuery = rangeQuery.omit({ cursor: true }).extend({
  name: z.string().min(1).max(MAX_SCORE_NAME).optional(),
  source: z.enum(SCORE_SOURCES).optional(),
  call_id: id.optional(),
  trace_id: id.optional(),
  session_id: id.optional(),
  user_id: id.optional(),
});
export const scoreSeriesQuery = scoresQuery.omit({ limit: true }).extend({ buckets: queryInt(2, 500).default(48) });

/** An annotation: a member's score on a call (or a trace, a session), from the dashboard. */
export const annotationBody = scoreFields
  .omit({ source: true, timestamp: true, service: true, environment: true, release: true })
  .strict()
  .superRefine((s, ctx) => checkScore(s, ctx));

export const scoreRecord = KINDS.score.record.openapi('ScoreRecord');

export const linkedScore = z
  .object({
    id: z.string(),
    name: z.string(),
    data_type: z.enum(SCORE_DATA_TYPES),
    value: z.number().openapi({ description: "A numeric score's value; a boolean's 1 or 0; a categorical's 0." }),
    label: z.string().openapi({ description: "A categorical score's value; a boolean's true or false; a numeric one's label ('' without)." }),
    comment: z.string(),
    source: z.enum(SCORE_SOURCES),
    author: z.string().openapi({ description: "An annotation's author (operator, or user:<id>); '' otherwise." }),
    timestamp: z.string().datetime(),
    on: z.enum(['call', 'trace']).openapi({ description: "call: given to the call (its event_id, or its span); trace: to the call's whole trace." }),
  })
  .openapi('LinkedScore');
sameKeys<z.infer<typeof linkedScore>, LinkedScore>(true);

export const scoreAverage = z
  .object({
    name: z.string(),
    count: z.number().int(),
    average: z.number().nullable().openapi({ description: 'The mean of its numeric and boolean values (a boolean: the share true); null: only categorical ones.' }),
  })
  .openapi('ScoreAverage');
sameKeys<z.infer<typeof scoreAverage>, ScoreAverage>(true);

export const scoreSummary = z
  .object({
    name: z.string(),
    data_type: z.enum(SCORE_DATA_TYPES).openapi({ description: 'The type of its latest score.' }),
    count: z.number().int(),
    average: z.number().nullable().openapi({ description: 'The mean of its numeric and boolean values; null: categorical only.' }),
    distribution: z
      .array(z.object({ value: z.string(), count: z.number().int() }))
      .openapi({ description: 'Categorical and boolean scores: how many of each value, most common first (at most 20).' }),
  })
  .openapi('ScoreSummary');
sameKeys<z.infer<typeof scoreSummary>, ScoreSummary>(true);

export const SCORE_NOTES = {
  name: `A score name (1 to ${MAX_SCORE_NAME} characters).`,
  value: `A finite number, a label of 1 to ${MAX_SCORE_LABEL} characters, or true/false.`,
  comment: `At most ${MAX_SCORE_COMMENT} characters.`,
};
