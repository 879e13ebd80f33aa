import { z } from 'zod';
import { bucketsOf, rangeOrDefault } from '@devtrail/column-store';
import { readScores, readScoreSeries, readScoreSummary, scoreToEvent, type ScoreFilter } from '@devtrail/kinds';
import { ERRORS } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from '../api/access.ts';
import { apiTimeRange } from '../api/api-schemas.ts';
import { answers, OPERATOR, projectParams, RANGE_NOTE } from '../api/project-route.ts';
import type { ReadDeps } from '../api/read-deps.ts';
import { AXIS, axisOf } from '../api/read-notes.ts';
import { requester } from '../deletion/routes.ts';
import type { PublishScore } from './publisher.ts';
import { annotationBody, SCORE_NOTES, scoreRecord, scoreSeriesQuery, scoresQuery, scoreSummary } from './schemas.ts';

// Scores (libs/kinds/src/score/): one by one, a summary per name, averages over time, and a
// member's annotation, which goes to the scores topic like an ingested score (docs/api.md, "Scores").

export interface ScoreDeps extends ReadDeps {
  publishScore: PublishScore;
}

type ScoresQuery = z.output<typeof scoresQuery>;
const filterOf = async (d: ReadDeps, projectId: string, q: Omit<ScoresQuery, 'limit'>): Promise<ScoreFilter> => ({
  projectId,
  retentionDays: (await d.retentionOf(projectId)).score,
  range: rangeOrDefault(apiTimeRange(q)),
  name: q.name,
  source: q.source,
  call_id: q.call_id,
  trace_id: q.trace_id,
  session_id: q.session_id,
  user_id: q.user_id,
});
const FILTER_NOTES = {
  name: 'Only scores of this name.',
  source: 'api, eval or annotation.',
  call_id: "Only scores given to this LLM call's event_id.",
  trace_id: 'Only scores given to this trace (or a span of it).',
  session_id: 'Only scores given to this session.',
  user_id: 'Only scores given to this user.',
};
const LATEST_NOTE = `${RANGE_NOTE} Each score counts once: its latest version (a score sent again with its id replaces the earlier one).`;

export const SCORE_ROUTES: RouteGroup<ScoreDeps> = {
  name: 'scores',
  description: 'Scores on LLM work (evaluations, feedback, annotations): one by one, per name, over time; a member annotates; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/scores',
      summary: 'Scores one by one, newest first',
      description: `${LATEST_NOTE} limit: 1..1000, default 100.`,
      query: scoresQuery,
      notes: FILTER_NOTES,
      answers: answers(z.object({ scores: z.array(scoreRecord) })),
      async handle(d, { projectId, query: q }) {
        return readScores(d.searches, { ...(await filterOf(d, projectId, q)), limit: q.limit });
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/scores/summary',
      summary: 'Per score name: how many, their average, the distribution of categorical and boolean values',
      description: `${LATEST_NOTE} At most 100 names, most given first.`,
      query: scoresQuery.omit({ limit: true }),
      notes: FILTER_NOTES,
      answers: answers(z.object({ names: z.array(scoreSummary) })),
      async handle(d, { projectId, query: q }) {
        return { names: await readScoreSummary(d.searches, await filterOf(d, projectId, q)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/scores/series',
      summary: 'The average of each numeric and boolean score name per time bucket',
      description: `${LATEST_NOTE} At most 20 names, most given first.`,
      query: scoreSeriesQuery,
      notes: { ...FILTER_NOTES, buckets: 'Buckets over the range, 2 to 500 (default 48).' },
      answers: answers(
        z.object({
          ...AXIS,
          series: z.array(
            z.object({
              name: z.string(),
              average: z.array(z.number().nullable()).openapi({ description: 'The mean per bucket; null: no score in it.' }),
              count: z.array(z.number().int()),
            }),
          ),
        }),
      ),
      async handle(d, { projectId, query: q }) {
        const buckets = bucketsOf(apiTimeRange(q), q.buckets);
        return { ...axisOf(buckets), series: await readScoreSeries(d.searches, await filterOf(d, projectId, q), buckets) };
      },
    }),
    route({
      method: 'post',
      path: '/api/projects/:id/scores',
      summary: 'Annotate: add (or, with its id, replace) a score, as the caller',
      description:
        'A member (or the operator) scores an LLM call, a trace, a session or a user, with an optional comment. Its source is annotation and its author the caller (operator, or user:<id>). The 200 comes once the score is in the scores topic; it shows in reads once the scores sink has stored it.',
      body: annotationBody,
      notes: SCORE_NOTES,
      answers: answers(z.object({ ok: z.literal(true), id: z.string().openapi({ description: "The score's id: send it again to replace the score." }) }), (docs) => ({
        403: docs.errorResponse('A read-only dashboard session (viewer).', ERRORS.readOnly),
      })),
      async handle(d, { projectId, body }, request) {
        const event = scoreToEvent({ service: 'unknown', environment: 'production', ...body }, new Date().toISOString(), {
          source: 'annotation',
          author: requester(request),
        });
        await d.publishScore(projectId, event, (await d.retentionOf(projectId)).score);
        return { ok: true, id: event.id };
      },
    }),
  ],
};
