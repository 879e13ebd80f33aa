import { bucketExpr, bucketsOf, fromChTime, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { error } from './index.ts';

// What a group's page answers beyond its counts (docs/dashboard.md, "An error group"): where
// it happens (the top values of release, environment, service, browser, OS and of every
// context key), since when (every release it was seen in, first and last), and how often
// over time, and who met it most. Distinct event ids over the group's fingerprints (itself and
// the groups merged into it), within the project's retention; every list bounded. A tag whose
// values are all distinct (a request id: each value once) says nothing of where it happens and
// is left out.

export const TAG_VALUES = 10;
export const CONTEXT_KEYS = 20;
const MAX_RELEASES = 200;
const VALUE_CHARS = 200;

export interface TagValue {
  value: string;
  count: number;
}
export interface GroupTag {
  key: string;
  values: TagValue[];
}
export interface GroupRelease {
  release: string;
  count: number;
  first_seen: string;
  last_seen: string;
}
export interface GroupChart {
  from: string;
  step_ms: number;
  counts: number[];
}

interface Scope {
  projectId: string;
  retentionDays: number;
  fingerprints: string[];
}

const WHERE = `project_id = {project:String} AND fingerprint IN {fps:Array(FixedString(64))} AND ${withinRetention(error.tableDef.ttlColumn)}`;
const params = (s: Scope) => ({ project: s.projectId, fps: s.fingerprints, retention: s.retentionDays });

// A browser and an OS: as the sender named them in the context (browser, os, OTLP's
// os.type in the resource), else read from a user agent string in the context.
const ctx = (...path: string[]) => `JSONExtractString(context, ${path.map((p) => `'${p}'`).join(', ')})`;
const UA = `if(${ctx('user_agent')} != '', ${ctx('user_agent')}, if(${ctx('user_agent.original')} != '', ${ctx('user_agent.original')}, ${ctx('otel.resource', 'user_agent.original')}))`;
const BROWSER = `multiIf(${ctx('browser')} != '', ${ctx('browser')}, ${ctx('browser.name')} != '', ${ctx('browser.name')},
  ${UA} LIKE '%Edg/%', 'Edge', ${UA} LIKE '%Firefox/%', 'Firefox', ${UA} LIKE '%Chrome/%', 'Chrome', ${UA} LIKE '%Safari/%', 'Safari', '')`;
const OS = `multiIf(${ctx('os')} != '', ${ctx('os')}, ${ctx('os.name')} != '', ${ctx('os.name')}, ${ctx('otel.resource', 'os.type')} != '', ${ctx('otel.resource', 'os.type')},
  ${UA} LIKE '%Windows%', 'Windows', ${UA} LIKE '%iPhone%' OR ${UA} LIKE '%iPad%', 'iOS', ${UA} LIKE '%Mac OS X%', 'macOS', ${UA} LIKE '%Android%', 'Android', ${UA} LIKE '%Linux%', 'Linux', '')`;
const FIXED: Array<[string, string]> = [
  ['release', 'toString(release)'],
  ['environment', 'toString(environment)'],
  ['service', 'toString(service)'],
  ['browser', BROWSER],
  ['os', OS],
];

/** A context value as text: a JSON string's own text, any other JSON value as written. */
function contextValue(raw: string): string {
  if (raw.startsWith('"')) {
    try {
      return String(JSON.parse(raw)).slice(0, VALUE_CHARS);
    } catch {
      return raw;
    }
  }
  return raw;
}

/** The top values of the fixed tags and of the most used context keys. */
export async function readGroupTags(store: ColumnStore, s: Scope): Promise<GroupTag[]> {
  const fixed = await store.query<{ tag: string; value: string; n: string | number }>(
    `SELECT tag, value, n FROM (
       ${FIXED.map(([tag, expr]) => `SELECT '${tag}' AS tag, ${expr} AS value, uniqExact(event_id) AS n FROM ${error.name} WHERE ${WHERE} GROUP BY value`).join(' UNION ALL ')}
     ) WHERE value != '' ORDER BY tag, n DESC, value LIMIT ${TAG_VALUES} BY tag`,
    params(s),
  );
  const context = await store.query<{ key: string; value: string; n: string | number }>(
    `SELECT kv.1 AS key, substring(kv.2, 1, ${VALUE_CHARS + 2}) AS value, uniqExact(event_id) AS n
       FROM ${error.name} ARRAY JOIN JSONExtractKeysAndValuesRaw(context) AS kv
      WHERE ${WHERE}
      GROUP BY key, value
      ORDER BY n DESC, key, value
      LIMIT ${TAG_VALUES} BY key
      LIMIT ${TAG_VALUES * CONTEXT_KEYS * 5}`,
    params(s),
  );
  const out: GroupTag[] = FIXED.map(([key]) => ({ key, values: [] }));
  for (const r of fixed) out.find((t) => t.key === r.tag)?.values.push({ value: r.value, count: Number(r.n) });
  const byKey = new Map<string, TagValue[]>();
  const shown = new Set(FIXED.map(([key]) => key));
  for (const r of context) {
    if (shown.has(r.key)) continue; // a context "browser" is the Browser tag already
    const list = byKey.get(r.key) ?? [];
    if (!byKey.has(r.key)) {
      if (byKey.size >= CONTEXT_KEYS) continue;
      byKey.set(r.key, list);
    }
    list.push({ value: contextValue(r.value), count: Number(r.n) });
  }
  for (const [key, values] of byKey) out.push({ key: `context.${key}`, values });
  return out.filter((t) => t.values.length > 0 && !allDistinct(t.values));
}

/** Two or more values, the most frequent seen once: every occurrence has its own value. */
const allDistinct = (values: TagValue[]) => values.length >= 2 && values[0].count === 1;

export const TOP_USERS = 10;

export interface GroupUser {
  user_id: string;
  count: number;
  last_seen: string;
}

/** The users who met the group most, with when each last did. */
export async function readGroupUsers(store: ColumnStore, s: Scope): Promise<GroupUser[]> {
  const rows = await store.query<{ user_id: string; n: string | number; ls: string }>(
    `SELECT user_id, uniqExact(event_id) AS n, max(timestamp) AS ls
       FROM ${error.name} WHERE ${WHERE} AND user_id != ''
      GROUP BY user_id ORDER BY n DESC, ls DESC, user_id LIMIT ${TOP_USERS}`,
    params(s),
  );
  return rows.map((r) => ({ user_id: r.user_id, count: Number(r.n), last_seen: fromChTime(r.ls) }));
}

/** Every release the group was seen in, oldest first seen first. */
export async function readGroupReleases(store: ColumnStore, s: Scope): Promise<GroupRelease[]> {
  const rows = await store.query<{ release: string; n: string | number; fs: string; ls: string }>(
    `SELECT release, uniqExact(event_id) AS n, min(timestamp) AS fs, max(timestamp) AS ls
       FROM ${error.name} WHERE ${WHERE} AND release != ''
      GROUP BY release ORDER BY fs, release LIMIT ${MAX_RELEASES}`,
    params(s),
  );
  return rows.map((r) => ({ release: r.release, count: Number(r.n), first_seen: fromChTime(r.fs), last_seen: fromChTime(r.ls) }));
}

/** Distinct occurrences per bucket over the range (48 buckets at most). */
export async function readGroupChart(store: ColumnStore, s: Scope & { range: Partial<TimeRange> }): Promise<GroupChart> {
  const b = bucketsOf(s.range, 48);
  const counts = new Array<number>(b.count).fill(0);
  const rows = await store.query<{ b: string | number; n: string | number }>(
    `SELECT ${bucketExpr('timestamp')} AS b, uniqExact(event_id) AS n
       FROM ${error.name}
      WHERE ${WHERE} AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
      GROUP BY b`,
    { ...params(s), from: b.fromMs, to: b.toMs, step: b.stepMs },
  );
  for (const r of rows) {
    const i = Number(r.b);
    if (i >= 0 && i < b.count) counts[i] = Number(r.n);
  }
  return { from: new Date(b.fromMs).toISOString(), step_ms: b.stepMs, counts };
}
