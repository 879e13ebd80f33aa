import { z } from 'zod';
import type { KindDocs } from '../kind.ts';
import { requestComponent } from '../docs.ts';
import { MAX_SCORE_COMMENT, MAX_SCORE_ID, MAX_SCORE_LABEL, MAX_SCORE_NAME } from './limits.ts';
import { scoreFields } from './request.ts';

export const SCORE_PATH = '/ingest/scores';

export const scoreDocs: KindDocs = {
  summary: 'Record one score (an evaluation or feedback) on an LLM call, a trace, a session or a user',
  description:
    'A name with a numeric, categorical or boolean value and an optional comment. A score sent again with the same id replaces the earlier one (docs/api.md, "Scores").',
  sample: { name: 'helpfulness', value: 0.8, trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', comment: 'Answered the question' },
  required: 'name',
  recordName: 'ScoreRecord',
  success: { name: 'Ok', schema: () => z.object({ ok: z.literal(true) }) },
  requestBody: (docs) =>
    requestComponent(
      docs,
      'Score',
      scoreFields,
      SCORE_PATH,
      {
        id: `The score's own id (1 to ${MAX_SCORE_ID} characters): a score sent again with it replaces the earlier one. Absent: a new score each time.`,
        name: `1 to ${MAX_SCORE_NAME} characters, e.g. helpfulness, user_feedback.`,
        value: `A finite number (numeric), a string of 1 to ${MAX_SCORE_LABEL} characters (categorical) or true/false (boolean).`,
        data_type: 'numeric, categorical or boolean; absent: from the value (number, string, boolean). A boolean also takes 1 and 0.',
        label: `A numeric score's label as well (an evaluator's verdict), 1 to ${MAX_SCORE_LABEL} characters.`,
        comment: `At most ${MAX_SCORE_COMMENT} characters.`,
        call_id: "An LLM call's event_id (GET /api/projects/{id}/llm-calls).",
        trace_id: 'A trace (an LLM call made in it carries it in its metadata trace_id).',
        span_id: 'A span of trace_id (a GenAI call carries it in its metadata span_id).',
        session_id: 'A session (metadata session.id, else gen_ai.conversation.id, of its calls).',
        user_id: 'A user (metadata enduser.id of its calls). At least one of call_id, trace_id, session_id, user_id.',
        timestamp: 'When it was given, ISO 8601; default: when it is received.',
        source: 'api (default) or eval (from an evaluator).',
      },
      '.',
    ),
};
