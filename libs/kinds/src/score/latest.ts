import { withinRetention, type TimeRange } from '@devtrail/column-store';
import { score } from './index.ts';

// The scores a read counts: each score's latest version (a score sent again with its id
// replaces the earlier one, docs/api.md "Scores"), within the project's retention. A
// correction that moved a score's timestamp counts where its latest timestamp falls.

export interface ScoreFilter {
  projectId: string;
  /** The project's retention of scores (that of its LLM data unless set): older scores are never read (docs/data.md). */
  retentionDays: number;
  /** Scores given in this range; absent: every score in retention. */
  range?: Partial<TimeRange>;
  name?: string;
  source?: string;
  call_id?: string;
  trace_id?: string;
  session_id?: string;
  user_id?: string;
}

const EXACT = ['name', 'source', 'call_id', 'trace_id', 'session_id', 'user_id'] as const;

/**
 * A subquery of the latest version of each score the filter takes, with `extra` conditions
 * (SQL over the score's columns) before the latest is chosen.
 */
export function latestScores(f: ScoreFilter, extra: string[] = []) {
  const params: Record<string, unknown> = { sproject: f.projectId, sretention: f.retentionDays };
  const where = ['project_id = {sproject:String}', withinRetention(score.tableDef.ttlColumn, 'sretention'), ...extra];
  if (f.range?.fromMs !== undefined) {
    where.push('timestamp >= fromUnixTimestamp64Milli({sfrom:Int64})');
    params.sfrom = f.range.fromMs;
  }
  if (f.range?.toMs !== undefined) {
    where.push('timestamp <= fromUnixTimestamp64Milli({sto:Int64})');
    params.sto = f.range.toMs;
  }
  for (const k of EXACT) {
    const v = f[k];
    if (v === undefined) continue;
    where.push(`${k} = {s_${k}:String}`);
    params[`s_${k}`] = v;
  }
  return {
    sql: `(SELECT * FROM ${score.name} WHERE ${where.join(' AND ')} ORDER BY received_at DESC LIMIT 1 BY id)`,
    params,
  };
}
