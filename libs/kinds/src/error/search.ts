import { exact, jsonText, keyed, ordered, plain, text, type SearchMap } from '../search/fields.ts';
import { severities } from './event.ts';

// What the errors list's search names (docs/dashboard.md, "Errors"): a word matches the message,
// the type or the context; the error's fields by name; any other key is a context key
// (span_id and request_id are where the SDK puts them).
export const ERROR_SEARCH: SearchMap = {
  noun: 'error',
  words: [plain('error_message'), plain('error_type'), jsonText('context')],
  fields: {
    service: exact('service'),
    environment: exact('environment', 'env'),
    release: exact('release'),
    trace_id: exact('trace_id', 'trace'),
    message: text([plain('error_message')], 'msg'),
    type: exact('error_type', 'error_type'),
    severity: ordered('severity', severities, 'level'),
    user: exact('user_id', 'user_id'),
    fingerprint: exact('fingerprint'),
  },
  keyed: { 'context.': keyed('context', 'context'), 'metadata.': keyed('context', 'context') },
  keyNoun: 'context',
};
