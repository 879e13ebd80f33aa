import type { ColumnStore } from '@devtrail/column-store';
import { EVENT_KINDS, KINDS, type EventKind } from './registry.ts';

export interface IngestionRate {
  minute: string;
  kind: EventKind;
  events: number;
}

/**
 * Stored events per minute and kind over the last `minutes`, by receive time (every kind's
 * table keeps the envelope's received_at): what the consumers wrote in those minutes, whatever
 * time the events say they happened at. A replayed batch is counted once (FINAL).
 */
export async function readIngestionRates(store: ColumnStore, projectId: string, minutes: number): Promise<IngestionRate[]> {
  const perKind = EVENT_KINDS.map((kind) => {
    const { name } = KINDS[kind].tableDef;
    const t = 'received_at';
    return `SELECT toStartOfMinute(${t}) AS minute, '${kind}' AS kind, count() AS n FROM ${name} FINAL
         WHERE project_id = {project:String} AND ${t} >= now() - toIntervalMinute({minutes:UInt32}) GROUP BY minute`;
  });
  const rows = await store.query<{ minute: string; kind: EventKind; events: string }>(
    `SELECT minute, kind, sum(n) AS events FROM (${perKind.join('\n UNION ALL ')}) GROUP BY minute, kind ORDER BY minute, kind`,
    { project: projectId, minutes },
  );
  return rows.map((r) => ({ minute: `${String(r.minute).replace(' ', 'T')}Z`, kind: r.kind, events: Number(r.events) }));
}
