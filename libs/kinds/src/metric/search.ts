import { checkKeyedOrExact, parseSearch, type SearchDialect, type SearchNode } from '../log/search/syntax.ts';
import { searchSql, type SearchColumns, type SearchSql } from '../log/search/sql.ts';

// A metric's filter speaks the logs' search syntax (docs/api.md#metrics): words in the
// metric's name or its attributes' text, `service:`, `environment:`, `release:`, `scope:`,
// a point's attributes as keys (`http.route:/pay`, `attributes.code:200`) and the resource's
// under `resource.`. The attributes and the resource are searched as one JSON text
// (`metadata`, made by the series query: series.ts), under these two roots.

export const METRIC_SEARCH_FIELDS = {
  service: { kind: 'exact', aliases: [] },
  environment: { kind: 'exact', aliases: ['env'] },
  release: { kind: 'exact', aliases: [] },
  scope: { kind: 'exact', aliases: [] },
} as const;

/** The roots of the searched JSON text, and how series.ts makes it from a row. */
export const SEARCHED_JSON = `concat('{"a":', attributes, ',"r":', resource, '}')`;

export const METRIC_SEARCH: SearchDialect = {
  fields: METRIC_SEARCH_FIELDS,
  keyed: { 'attributes.': 'attributes', 'resource.': 'resource' },
  check: (node, fail) => checkKeyedOrExact(node, fail, 'attribute numbers'),
};

const METRIC_COLUMNS: SearchColumns = {
  text: 'metric',
  keyed: { attributes: ['a'], resource: ['r'] },
  field: () => undefined,
};

/** Parses a metric filter (SearchSyntaxError as the logs' search). */
export const parseMetricSearch = (src: string): SearchNode | null => parseSearch(src, METRIC_SEARCH);

/** The condition of a parsed filter, over rows that carry SEARCHED_JSON as `metadata`. */
export const metricSearchSql = (node: SearchNode): SearchSql => searchSql(node, 'mq', METRIC_COLUMNS);
