import { exact, jsonText, keyed, plain, type SearchMap } from '../search/fields.ts';

// What a metric's filter names (docs/api.md#metrics, the search syntax of docs/dashboard.md):
// words in the metric's name or its attributes, `service:`, `environment:`, `release:`,
// `scope:`, a point's attributes as keys (`http.route:/pay`, `attributes.code:200`) and the
// resource's under `resource.`.

export const METRIC_SEARCH: SearchMap = {
  noun: 'metric point',
  words: [plain('metric'), jsonText('attributes')],
  fields: {
    service: exact('service'),
    environment: exact('environment', 'env'),
    release: exact('release'),
    scope: exact('scope'),
  },
  keyed: { 'attributes.': keyed('attributes', 'attributes'), 'resource.': keyed('resource', 'resource') },
  keyNoun: 'attribute',
};
