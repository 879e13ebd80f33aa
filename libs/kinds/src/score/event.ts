import { COMMON_FIELDS, amount, freeText, label, oneOf, text, time, type EventOf } from '../fields.ts';
import { SCORE_DATA_TYPES, SCORE_SOURCES } from './limits.ts';

/** A score's fields, in order (kind.ts derives its schema, columns, row and record from them). */
export const SCORE_FIELDS = {
  ...COMMON_FIELDS,
  /** When the score was given (the client's, else the receive time). */
  timestamp: time,
  /** The client's id, else one made at the door: a score sent again with it replaces the earlier one. */
  id: text,
  name: label,
  data_type: oneOf(SCORE_DATA_TYPES),
  /** The number: a numeric score's value; a boolean's 1 or 0; a categorical's 0. */
  value: amount,
  /** A categorical score's value; a boolean's "true" or "false"; a numeric one's label ('' without). */
  label: label,
  comment: freeText,
  /** What it scores: an LLM call (its event_id), a trace, a span within it, a session, a user (any may be ''). */
  call_id: text,
  trace_id: text,
  span_id: text,
  session_id: text,
  user_id: text,
  source: oneOf(SCORE_SOURCES),
  /** Who gave it: the dashboard member for an annotation, else ''. */
  author: text,
};

export type ScoreEvent = EventOf<typeof SCORE_FIELDS>;
