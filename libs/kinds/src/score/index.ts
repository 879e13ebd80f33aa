import { defineKind } from '../kind.ts';
import { SCORE_FIELDS } from './event.ts';
import { scoreSchema, scoreToEvent } from './request.ts';
import { scoreFromOtlp } from './otlp.ts';
import { SCORE_PATH, scoreDocs } from './docs.ts';

// Scores: evaluations of and feedback on LLM work, one per request (also from OTLP GenAI
// evaluation events, otlp.ts). A score is kept and deleted with the LLM data (`partOf`).
export const score = defineKind({
  id: 'score',
  name: 'scores',
  path: SCORE_PATH,
  request: scoreSchema,
  fields: SCORE_FIELDS,
  toEvents: (body, now) => [scoreToEvent(body, now)],
  respond: () => ({ ok: true }),
  partOf: 'llm',
  table: {
    receivedAt: true,
    // The latest version of a score (its received_at) is the one that counts; reads take it (read.ts).
    engine: 'ReplacingMergeTree(received_at)',
    partitionBy: 'toYYYYMM(timestamp)',
    orderBy: '(project_id, id)',
    ttlColumn: 'received_at',
    timeColumn: 'timestamp',
  },
  otlp: scoreFromOtlp,
  docs: scoreDocs,
});
