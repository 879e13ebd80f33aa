import { fromChTime, type ColumnStore } from '@devtrail/column-store';
import { error } from './index.ts';

// A group's occurrences by release and environment (the triage view: first and last
// release, where it happens). Distinct event ids, over the table's whole retention.

export interface GroupBreakdownRow {
  release: string;
  environment: string;
  count: number;
  first_seen: string;
  last_seen: string;
}

/** `fingerprint`: the group, or its fingerprints (itself and the groups merged into it). */
export async function readGroupBreakdown(store: ColumnStore, projectId: string, fingerprint: string | string[]): Promise<GroupBreakdownRow[]> {
  const rows = await store.query<{ release: string; environment: string; n: string | number; fs: string; ls: string }>(
    `SELECT release, environment, uniqExact(event_id) AS n, min(timestamp) AS fs, max(timestamp) AS ls
       FROM ${error.name}
      WHERE project_id = {project:String} AND fingerprint IN {fps:Array(FixedString(64))}
      GROUP BY release, environment
      ORDER BY ls DESC
      LIMIT 500`,
    { project: projectId, fps: Array.isArray(fingerprint) ? fingerprint : [fingerprint] },
  );
  return rows.map((r) => ({ release: r.release, environment: r.environment, count: Number(r.n), first_seen: fromChTime(r.fs), last_seen: fromChTime(r.ls) }));
}
