import type { ColumnStore } from '@devtrail/column-store';

/** Distinct log events stored for a project (de-duplicated), to reconcile with what was acknowledged. */
export async function countLogs(store: ColumnStore, projectId: string): Promise<number> {
  const [row] = await store.query<{ n: string }>('SELECT count() AS n FROM logs FINAL WHERE project_id = {project:String}', { project: projectId });
  return Number(row?.n ?? 0);
}
