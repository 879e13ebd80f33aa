import { rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { session } from './index.ts';

// Release health (docs/api.md#release-health): per release, the sessions that started in the
// range, each read as the worst status any of its updates had (crashed, then errored, exited,
// ok), and the users among them. Crash-free sessions is the share of sessions that did not
// crash; crash-free users the share of users none of whose sessions crashed; adoption the
// release's share of all sessions in the range; the change is from the release first seen
// before it.

export interface ReleaseHealth {
  release: string;
  sessions: number;
  crashed: number;
  errored: number;
  users: number;
  crashed_users: number;
  /** 0..1 */
  crash_free_sessions: number;
  /** 0..1; null without users. */
  crash_free_users: number | null;
  /** The release's share of the range's sessions, 0..1. */
  adoption: number;
  first_seen: string;
  /** crash_free_sessions minus that of the release first seen before this one; null for the first. */
  crash_free_change: number | null;
}

export interface ReleaseHealthQuery {
  projectId: string;
  /** The project's retention of sessions (docs/data.md). */
  retentionDays: number;
  range?: Partial<TimeRange>;
  environment?: string;
  /** Only this release (alert rules): its figures stay those of the whole list. */
  release?: string;
}

const WORST = "max(multiIf(status = 'crashed', 3, status = 'errored', 2, status = 'exited', 1, 0))";

export async function readReleaseHealth(store: ColumnStore, q: ReleaseHealthQuery): Promise<ReleaseHealth[]> {
  const range = rangeOrDefault(q.range);
  const rows = await store.query<Record<string, string | number>>(
    `SELECT release, count() AS sessions, countIf(worst = 3) AS crashed, countIf(worst = 2) AS errored,
            uniqExactIf(user, user != '') AS users, uniqExactIf(user, user != '' AND worst = 3) AS crashed_users,
            toUnixTimestamp64Milli(min(first)) AS first_ms
       FROM (
         SELECT release, session_id, max(distinct_id) AS user, ${WORST} AS worst, min(start_time) AS first
           FROM ${session.name} FINAL
          WHERE project_id = {project:String} AND release != ''
            AND start_time >= fromUnixTimestamp64Milli({from:Int64}) AND start_time <= fromUnixTimestamp64Milli({to:Int64})
            AND ${withinRetention(session.tableDef.ttlColumn)}
            ${q.environment ? 'AND environment = {environment:String}' : ''}
          GROUP BY release, session_id
       )
      GROUP BY release
      ORDER BY first_ms, release`,
    { project: q.projectId, from: range.fromMs, to: range.toMs, retention: q.retentionDays, environment: q.environment ?? '' },
  );
  const total = rows.reduce((n, r) => n + Number(r.sessions), 0);
  let previous: number | null = null;
  const out = rows.map((r): ReleaseHealth => {
    const sessions = Number(r.sessions);
    const crashed = Number(r.crashed);
    const users = Number(r.users);
    const crashedUsers = Number(r.crashed_users);
    const crashFree = sessions > 0 ? 1 - crashed / sessions : 1;
    const change = previous === null ? null : crashFree - previous;
    previous = crashFree;
    return {
      release: String(r.release),
      sessions,
      crashed,
      errored: Number(r.errored),
      users,
      crashed_users: crashedUsers,
      crash_free_sessions: crashFree,
      crash_free_users: users > 0 ? 1 - crashedUsers / users : null,
      adoption: total > 0 ? sessions / total : 0,
      first_seen: new Date(Number(r.first_ms)).toISOString(),
      crash_free_change: change,
    };
  });
  // Newest release first, as the releases page lists them.
  return out.reverse().filter((r) => q.release === undefined || r.release === q.release);
}
