import { exact, jsonText, keyed, ordered, plain, text, type SearchMap } from '../search/fields.ts';
import { logLevels } from './event.ts';

// What the logs' search names (docs/dashboard.md, "Search syntax"): words in the message or the
// metadata, the log's fields, levels by severity, any other key a metadata key.
export const LOG_SEARCH: SearchMap = {
  noun: 'log',
  words: [plain('message'), jsonText('metadata')],
  fields: {
    level: ordered('level', logLevels),
    service: exact('service'),
    environment: exact('environment', 'env'),
    release: exact('release'),
    context: exact('context'),
    trace_id: exact('trace_id', 'trace'),
    span_id: exact('span_id', 'span'),
    request_id: exact('request_id', 'request'),
    message: text([plain('message')], 'msg'),
  },
  keyed: { 'metadata.': keyed('metadata', 'metadata') },
  keyNoun: 'metadata',
};
