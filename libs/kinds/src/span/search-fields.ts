import { duration, exact, jsonText, keyed, oneOf, plain, type SearchMap } from '../search/fields.ts';
import { spanStatuses } from './event.ts';

// What the trace search names (docs/dashboard.md, "Trace search"): words in the operation or the
// attributes (metadata), span fields, `duration:>2s`, `status:error`, attributes as keys
// (`http.route:/checkout`, `metadata.tenant:acme`) and OTLP resource attributes under `resource.`.

/** Where OTLP resource attributes other than service, environment and release are kept (span/otlp.ts). */
export const RESOURCE_KEY = 'otel.resource';

export const SPAN_SEARCH: SearchMap = {
  noun: 'span',
  words: [plain('operation'), jsonText('metadata')],
  fields: {
    service: exact('service'),
    environment: exact('environment', 'env'),
    release: exact('release'),
    operation: exact('operation', 'op', 'name'),
    status: oneOf('status', spanStatuses),
    duration: duration('duration_ms', 'duration_ms'),
    trace_id: exact('trace_id', 'trace'),
    span_id: exact('span_id', 'span'),
    parent_span_id: exact('parent_span_id', 'parent'),
  },
  keyed: { 'metadata.': keyed('metadata', 'metadata'), 'resource.': keyed('resource', 'metadata', RESOURCE_KEY) },
  keyNoun: 'attribute',
};
