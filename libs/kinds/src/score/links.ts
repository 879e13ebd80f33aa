import { fromChTime, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { scalar, SESSION_SQL } from '../llm/call-filter.ts';
import { llm } from '../llm/index.ts';
import { PROMPT_NAME_SQL, PROMPT_VERSION_SQL } from '../llm/prompt-usage.ts';
import type { ScoreEvent } from './event.ts';
import { latestScores, type ScoreFilter } from './latest.ts';

// Scores by what they score (docs/api.md, "Scores"): an LLM call's own (its event_id, or its
// span in its trace) and its trace's; a session's and a user's, given to them directly or to
// their calls and those calls' traces. A score counts once however many ways it links.

/** A score as shown beside what it scores. */
export interface LinkedScore {
  id: string;
  name: string;
  data_type: ScoreEvent['data_type'];
  value: number;
  label: string;
  comment: string;
  source: ScoreEvent['source'];
  author: string;
  timestamp: string;
  /** What it was given to: the call (by event_id or by its span) or the call's whole trace. */
  on: 'call' | 'trace';
}

/** A call as its metadata links it (the SDK's and OTLP's trace_id and span_id). */
export interface ScoredCall {
  event_id: string;
  metadata: unknown;
}

const idOf = (metadata: unknown, key: string) => {
  const v = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

/** At most this many scores are read for one page of calls. */
export const MAX_CALL_SCORES = 5000;

/** Each call's scores (its own first, then its trace's), by event_id. */
export async function scoresOfCalls(store: ColumnStore, f: ScoreFilter, calls: readonly ScoredCall[]): Promise<Map<string, LinkedScore[]>> {
  const out = new Map<string, LinkedScore[]>(calls.map((c) => [c.event_id, []]));
  if (calls.length === 0) return out;
  const traces = [...new Set(calls.map((c) => idOf(c.metadata, 'trace_id')).filter(Boolean))];
  const s = latestScores(f, [`(call_id IN {scalls:Array(String)} OR (trace_id != '' AND trace_id IN {straces:Array(String)}))`]);
  const rows = await store.query<Record<string, string | number>>(
    `SELECT id, name, data_type, value, label, comment, source, author, timestamp, call_id, trace_id, span_id FROM ${s.sql}
      ORDER BY timestamp, id LIMIT ${MAX_CALL_SCORES}`,
    { ...s.params, scalls: calls.map((c) => c.event_id), straces: traces },
  );
  for (const c of calls) {
    const trace = idOf(c.metadata, 'trace_id');
    const span = idOf(c.metadata, 'span_id');
    const own: LinkedScore[] = [];
    const ofTrace: LinkedScore[] = [];
    for (const r of rows) {
      const linked = (on: LinkedScore['on']): LinkedScore => ({
        id: String(r.id),
        name: String(r.name),
        data_type: r.data_type as LinkedScore['data_type'],
        value: Number(r.value),
        label: String(r.label),
        comment: String(r.comment),
        source: r.source as LinkedScore['source'],
        author: String(r.author),
        timestamp: fromChTime(String(r.timestamp)),
        on,
      });
      if (r.call_id === c.event_id || (span !== '' && r.trace_id === trace && r.span_id === span)) own.push(linked('call'));
      else if (trace !== '' && r.trace_id === trace && r.span_id === '' && r.call_id === '') ofTrace.push(linked('trace'));
    }
    out.set(c.event_id, [...own, ...ofTrace]);
  }
  return out;
}

/** Per score name: how many and their mean (null: categorical only). */
export interface ScoreAverage {
  name: string;
  count: number;
  average: number | null;
}

interface Linking {
  /** The LLM calls' retention (docs/data.md). */
  callRetentionDays: number;
  range?: Partial<TimeRange>;
}

/**
 * The scores linked to each key of `calls` (a subquery of k, cid, tid, sess: a key, a call's
 * event_id, trace and session), and to the key directly through the score's column `direct`.
 */
function linkedSql(l: string, calls: string, direct: string | null) {
  const cols = 'id, name, value, data_type';
  const s = (c: string) =>
    c
      .split(', ')
      .map((x) => `s.${x} AS ${x}`)
      .join(', ');
  return `SELECT DISTINCT k, ${cols} FROM (
      ${direct === null ? '' : `SELECT ${direct} AS k, ${cols} FROM ${l} WHERE ${direct} IN (SELECT k FROM (${calls})) UNION ALL`}
      SELECT c.k AS k, ${s(cols)} FROM ${l} AS s INNER JOIN (SELECT DISTINCT k, cid FROM (${calls})) AS c ON s.call_id = c.cid
      UNION ALL SELECT c.k AS k, ${s(cols)} FROM ${l} AS s INNER JOIN (SELECT DISTINCT k, tid FROM (${calls}) WHERE tid != '') AS c ON s.trace_id = c.tid
      UNION ALL SELECT c.k AS k, ${s(cols)} FROM ${l} AS s INNER JOIN (SELECT DISTINCT k, sess FROM (${calls}) WHERE sess != '') AS c ON s.session_id = c.sess)`;
}

async function averagesOf(store: ColumnStore, f: ScoreFilter & Linking, keyOfCall: string, keyParam: Record<string, unknown>, keyWhere: string, direct: string | null) {
  // Every score of those calls counts, whenever it was given; the range picks the calls.
  const s = latestScores({ ...f, range: undefined });
  const calls = `SELECT ${keyOfCall} AS k, toString(event_id) AS cid, JSONExtractString(metadata, 'trace_id') AS tid, ${SESSION_SQL} AS sess
      FROM ${llm.name} WHERE project_id = {sproject:String} AND ${withinRetention(llm.tableDef.ttlColumn, 'cretention')} AND ${keyWhere}
      ${f.range?.fromMs !== undefined ? 'AND timestamp >= fromUnixTimestamp64Milli({cfrom:Int64})' : ''}
      ${f.range?.toMs !== undefined ? 'AND timestamp <= fromUnixTimestamp64Milli({cto:Int64})' : ''}
      LIMIT 100000`;
  const rows = await store.query<{ k: string; name: string; n: string | number; average: number; numbers: string | number }>(
    `SELECT k, name, count() AS n, avgIf(value, data_type != 'categorical') AS average, countIf(data_type != 'categorical') AS numbers
       FROM (${linkedSql(s.sql, calls, direct)}) GROUP BY k, name ORDER BY k, n DESC, name`,
    { ...s.params, ...keyParam, cretention: f.callRetentionDays, cfrom: f.range?.fromMs, cto: f.range?.toMs },
  );
  const out = new Map<string, ScoreAverage[]>();
  for (const r of rows) out.set(r.k, [...(out.get(r.k) ?? []), { name: r.name, count: Number(r.n), average: Number(r.numbers) > 0 ? Number(r.average) : null }]);
  return out;
}

/** Each session's score averages per name: scores on the session, its calls and their traces. */
export function scoresOfSessions(store: ColumnStore, f: ScoreFilter & Linking, sessions: readonly string[]): Promise<Map<string, ScoreAverage[]>> {
  if (sessions.length === 0) return Promise.resolve(new Map());
  return averagesOf(store, f, SESSION_SQL, { ssessions: sessions }, `${SESSION_SQL} IN {ssessions:Array(String)}`, 'session_id');
}

/** Each prompt version's score averages per name: scores on the calls linked to it (llm/prompt-link.ts) in the range, their traces and sessions. */
export function scoresOfPromptVersions(store: ColumnStore, f: ScoreFilter & Linking, prompt: string, versions: readonly number[]): Promise<Map<string, ScoreAverage[]>> {
  if (versions.length === 0) return Promise.resolve(new Map());
  return averagesOf(
    store,
    f,
    PROMPT_VERSION_SQL,
    { sprompt: prompt, sversions: versions.map(String) },
    `${PROMPT_NAME_SQL} = {sprompt:String} AND ${PROMPT_VERSION_SQL} IN {sversions:Array(String)}`,
    null,
  );
}

/**
 * A user's (metadata enduser.id) score averages per name: scores given to the user, to its
 * calls in the range, their traces and their sessions. For a user page.
 */
export async function readUserScores(store: ColumnStore, f: ScoreFilter & Linking & { user: string }): Promise<ScoreAverage[]> {
  const user = scalar('enduser.id');
  const m = await averagesOf(store, f, user, { suser: f.user }, `${user} = {suser:String}`, 'user_id');
  // A user with scores but no calls in the range: its direct scores still count.
  if (!m.has(f.user)) {
    const s = latestScores({ ...f, user_id: f.user, range: undefined });
    const rows = await store.query<{ name: string; n: string | number; average: number; numbers: string | number }>(
      `SELECT name, count() AS n, avgIf(value, data_type != 'categorical') AS average, countIf(data_type != 'categorical') AS numbers FROM ${s.sql} GROUP BY name ORDER BY n DESC, name`,
      s.params,
    );
    return rows.map((r) => ({ name: r.name, count: Number(r.n), average: Number(r.numbers) > 0 ? Number(r.average) : null }));
  }
  return m.get(f.user) ?? [];
}
