import { rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { metric } from './index.ts';

// What the metrics explorer picks from (docs/api.md#metrics): the metrics a project sent in a
// range with their type, unit and description, and a metric's attribute keys and their values.
// Each list is bounded; the time series are series.ts.

export const MAX_METRIC_NAMES = 1000;
export const MAX_ATTRIBUTE_KEYS = 200;
export const MAX_ATTRIBUTE_VALUES = 100;

export interface MetricName {
  name: string;
  type: string;
  unit: string;
  description: string;
  temporality: string;
  monotonic: boolean;
  points: number;
  last_seen: string;
}

interface Scope {
  projectId: string;
  retentionDays: number;
  range?: Partial<TimeRange>;
}

const where = `project_id = {project:String}
  AND time >= fromUnixTimestamp64Milli({from:Int64}) AND time <= fromUnixTimestamp64Milli({to:Int64})
  AND ${withinRetention(metric.tableDef.ttlColumn)}`;

const paramsOf = (q: Scope) => {
  const r = rangeOrDefault(q.range);
  return { project: q.projectId, from: r.fromMs, to: r.toMs, retention: q.retentionDays };
};

export async function readMetricNames(store: ColumnStore, q: Scope): Promise<MetricName[]> {
  const rows = await store.query<Record<string, unknown>>(
    `SELECT metric AS name, argMax(type, time) AS type, argMax(unit, time) AS unit, argMax(description, time) AS description,
            argMax(temporality, time) AS temporality, argMax(monotonic, time) AS monotonic, count() AS points,
            toUnixTimestamp64Milli(max(time)) AS last_ms
       FROM ${metric.name} FINAL WHERE ${where}
      GROUP BY metric ORDER BY metric LIMIT ${MAX_METRIC_NAMES}`,
    paramsOf(q),
  );
  return rows.map((r) => ({
    name: String(r.name),
    type: String(r.type),
    unit: String(r.unit),
    description: String(r.description),
    temporality: String(r.temporality),
    monotonic: r.monotonic === true || r.monotonic === 1,
    points: Number(r.points),
    last_seen: new Date(Number(r.last_ms)).toISOString(),
  }));
}

/** `attributes.<key>` for a point's attribute, `resource.<key>` for the resource's. */
export async function readMetricAttributeKeys(store: ColumnStore, q: Scope & { metric: string }): Promise<Array<{ key: string; values: number }>> {
  const rows = await store.query<{ key: string; n: number | string }>(
    `SELECT key, uniqExact(value) AS n FROM (
       SELECT concat('attributes.', k) AS key, JSONExtractRaw(attributes, k) AS value FROM ${metric.name} ARRAY JOIN JSONExtractKeys(attributes) AS k
        WHERE ${where} AND metric = {metric:String}
       UNION ALL
       SELECT concat('resource.', k) AS key, JSONExtractRaw(resource, k) AS value FROM ${metric.name} ARRAY JOIN JSONExtractKeys(resource) AS k
        WHERE ${where} AND metric = {metric:String})
      GROUP BY key ORDER BY key LIMIT ${MAX_ATTRIBUTE_KEYS}`,
    { ...paramsOf(q), metric: q.metric },
  );
  return rows.map((r) => ({ key: r.key, values: Number(r.n) }));
}

/** The most frequent values of one key (as group by and the filter see them: a string's text, another value's JSON). */
export async function readMetricAttributeValues(store: ColumnStore, q: Scope & { metric: string; key: string }): Promise<Array<{ value: string; points: number }>> {
  const [column, name] = q.key.startsWith('resource.') ? ['resource', q.key.slice(9)] : ['attributes', q.key.startsWith('attributes.') ? q.key.slice(11) : q.key];
  const rows = await store.query<{ value: string; points: number | string }>(
    `SELECT if(JSONType(${column}, {key:String}) = 'String', JSONExtractString(${column}, {key:String}), JSONExtractRaw(${column}, {key:String})) AS value, count() AS points
       FROM ${metric.name} WHERE ${where} AND metric = {metric:String} AND JSONHas(${column}, {key:String})
      GROUP BY value ORDER BY points DESC, value LIMIT ${MAX_ATTRIBUTE_VALUES}`,
    { ...paramsOf(q), metric: q.metric, key: name },
  );
  return rows.map((r) => ({ value: r.value, points: Number(r.points) }));
}
