import { absent, exact, jsonText, keyed, keyOf, text, type SearchMap } from '../search/fields.ts';

// What the LLM calls' search names (docs/dashboard.md, "LLM"): words in the conversation (input
// and output, JSON text) or the metadata; `message:` the conversation only; the trace a call
// belongs to is kept in its metadata; the logs' other fields are not a call's.
export const LLM_SEARCH: SearchMap = {
  noun: 'LLM call',
  words: [jsonText('input'), jsonText('output'), jsonText('metadata')],
  fields: {
    service: exact('service'),
    environment: exact('environment', 'env'),
    release: exact('release'),
    model: exact('model'),
    message: text([jsonText('input'), jsonText('output')], 'msg'),
    trace_id: keyOf('metadata', 'trace'),
    span_id: keyOf('metadata', 'span'),
    level: absent(),
    context: absent(),
    request_id: absent('request'),
  },
  keyed: { 'metadata.': keyed('metadata', 'metadata') },
  keyNoun: 'metadata',
};
