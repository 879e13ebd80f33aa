import type { ColumnStore } from '../column-store.ts';

export interface IngestionRate {
  minute: string;
  kind: 'log' | 'error' | 'span' | 'llm';
  events: number;
}

/** Stored events per minute and kind over the last `minutes`, by receive time. */
export async function readIngestionRates(store: ColumnStore, projectId: string, minutes: number): Promise<IngestionRate[]> {
  const rows = await store.query<{ minute: string; kind: IngestionRate['kind']; events: string }>(
    `SELECT minute, kind, sum(n) AS events FROM (
        SELECT toStartOfMinute(received_at) AS minute, 'log' AS kind, count() AS n FROM logs
         WHERE project_id = {project:String} AND received_at >= now() - toIntervalMinute({minutes:UInt32}) GROUP BY minute
        UNION ALL
        SELECT toStartOfMinute(timestamp), 'error', count() FROM errors
         WHERE project_id = {project:String} AND timestamp >= now() - toIntervalMinute({minutes:UInt32}) GROUP BY 1
        UNION ALL
        SELECT toStartOfMinute(received_at), 'span', count() FROM spans
         WHERE project_id = {project:String} AND received_at >= now() - toIntervalMinute({minutes:UInt32}) GROUP BY 1
        UNION ALL
        SELECT toStartOfMinute(timestamp), 'llm', count() FROM llm_usage
         WHERE project_id = {project:String} AND timestamp >= now() - toIntervalMinute({minutes:UInt32}) GROUP BY 1
      ) GROUP BY minute, kind ORDER BY minute, kind`,
    { project: projectId, minutes },
  );
  return rows.map((r) => ({ minute: `${String(r.minute).replace(' ', 'T')}Z`, kind: r.kind, events: Number(r.events) }));
}
