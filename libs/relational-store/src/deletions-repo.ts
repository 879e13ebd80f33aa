import type { RelationalStore } from './relational-store.ts';
import { isUuid, PROJECT_CHANGED_CHANNEL } from './projects-repo.ts';

// Deletions of stored events (docs/data.md): a whole project, some of a project's events
// (a service, a time range), or what a lowered retention left behind. A record outlives its
// project, so its progress stays readable; the dashboard's deletion worker claims open ones
// with a lease (any number of dashboard replicas) and saves their progress as it goes.
// A deleted project is also remembered in deleted_projects, which the consumers read so its
// events still in Kafka are never written again.

export const PROJECT_DELETED_CHANNEL = 'devtrail_project_deleted';
/** Some of a project's events were deleted (payload: the deletion's id): consumers read the deletions again. */
export const EVENTS_DELETED_CHANNEL = 'devtrail_events_deleted';

export type DeletionReason = 'project' | 'events' | 'retention';
export type DeletionStatus = 'pending' | 'running' | 'done' | 'failed';

export interface Deletion {
  id: string;
  projectId: string;
  projectName: string;
  reason: DeletionReason;
  /** What to delete, as the admin API took it (kinds, service, from, to). */
  filter: Record<string, unknown>;
  requestedBy: string;
  requestedAt: string;
  status: DeletionStatus;
  /** The worker's state, per table (docs/data.md). */
  progress: Record<string, unknown>;
  error: string | null;
  finishedAt: string | null;
  /** When it was published on the deletions topic; null until then. */
  publishedAt: string | null;
}

interface DeletionRow {
  id: string;
  project_id: string;
  project_name: string;
  reason: DeletionReason;
  filter: Record<string, unknown>;
  requested_by: string;
  requested_at: Date | string;
  status: DeletionStatus;
  progress: Record<string, unknown>;
  error: string | null;
  finished_at: Date | string | null;
  published_at: Date | string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const toDeletion = (r: DeletionRow): Deletion => ({
  id: r.id,
  projectId: r.project_id,
  projectName: r.project_name,
  reason: r.reason,
  filter: r.filter ?? {},
  requestedBy: r.requested_by,
  requestedAt: iso(r.requested_at)!,
  status: r.status,
  progress: r.progress ?? {},
  error: r.error,
  finishedAt: iso(r.finished_at),
  publishedAt: iso(r.published_at),
});

const COLUMNS = 'id, project_id, project_name, reason, filter, requested_by, requested_at, status, progress, error, finished_at, published_at';

export function deletionsRepo(store: RelationalStore) {
  return {
    /**
     * Deletes the project (its keys, origins, members and policy with it) and records the
     * deletion of its events, in one transaction; every receiver forgets its key at once and
     * every consumer starts ignoring its events. Null when there is no such project.
     */
    async deleteProject(projectId: string, requestedBy: string): Promise<Deletion | null> {
      if (!isUuid(projectId)) return null;
      return store.transaction(async (tx) => {
        const [project] = await tx.query<{ name: string }>('SELECT name FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
        if (!project) return null;
        const [row] = await tx.query<DeletionRow>(
          `INSERT INTO data_deletions (project_id, project_name, reason, requested_by) VALUES ($1, $2, 'project', $3) RETURNING ${COLUMNS}`,
          [projectId, project.name, requestedBy],
        );
        await tx.query('INSERT INTO deleted_projects (project_id) VALUES ($1) ON CONFLICT DO NOTHING', [projectId]);
        await tx.query('DELETE FROM projects WHERE id = $1', [projectId]);
        await tx.query('SELECT pg_notify($1, $2)', [PROJECT_CHANGED_CHANNEL, projectId]);
        await tx.query('SELECT pg_notify($1, $2)', [PROJECT_DELETED_CHANNEL, projectId]);
        return toDeletion(row);
      });
    },

    /** Records a deletion of some of a live project's events; null when there is no such project. */
    async deleteEvents(projectId: string, reason: Exclude<DeletionReason, 'project'>, filter: Record<string, unknown>, requestedBy: string): Promise<Deletion | null> {
      if (!isUuid(projectId)) return null;
      return store.transaction(async (tx) => {
        const [row] = await tx.query<DeletionRow>(
          `INSERT INTO data_deletions (project_id, project_name, reason, filter, requested_by)
           SELECT id, name, $2, $3, $4 FROM projects WHERE id = $1 RETURNING ${COLUMNS}`,
          [projectId, reason, JSON.stringify(filter), requestedBy],
        );
        if (row) await tx.query('SELECT pg_notify($1, $2)', [EVENTS_DELETED_CHANNEL, row.id]);
        return row ? toDeletion(row) : null;
      });
    },

    /** Deletions not yet published on the deletions topic, oldest first. */
    async unpublished(limit = 100): Promise<Deletion[]> {
      return (await store.query<DeletionRow>(`SELECT ${COLUMNS} FROM data_deletions WHERE published_at IS NULL ORDER BY requested_at, id LIMIT $1`, [limit])).map(
        toDeletion,
      );
    },

    async markPublished(ids: string[]): Promise<void> {
      if (ids.length > 0) await store.query('UPDATE data_deletions SET published_at = now() WHERE id = ANY($1::uuid[]) AND published_at IS NULL', [ids]);
    },

    /** Every deletion of some of a project's events (not whole projects: deletedProjectIds), oldest first. */
    async eventDeletions(): Promise<Deletion[]> {
      return (await store.query<DeletionRow>(`SELECT ${COLUMNS} FROM data_deletions WHERE reason <> 'project' ORDER BY requested_at, id`)).map(toDeletion);
    },

    async get(id: string): Promise<Deletion | null> {
      if (!isUuid(id)) return null;
      const [row] = await store.query<DeletionRow>(`SELECT ${COLUMNS} FROM data_deletions WHERE id = $1`, [id]);
      return row ? toDeletion(row) : null;
    },

    /** Newest first: of some projects, or of every project (null). */
    async list(projectIds: string[] | null, limit = 100): Promise<Deletion[]> {
      const rows =
        projectIds === null
          ? await store.query<DeletionRow>(`SELECT ${COLUMNS} FROM data_deletions ORDER BY requested_at DESC, id LIMIT $1`, [limit])
          : await store.query<DeletionRow>(`SELECT ${COLUMNS} FROM data_deletions WHERE project_id = ANY($1::uuid[]) ORDER BY requested_at DESC, id LIMIT $2`, [
              projectIds.filter(isUuid),
              limit,
            ]);
      return rows.map(toDeletion);
    },

    /** The oldest open deletion nobody holds, leased to the caller for `leaseMs`; null when there is none. */
    async claim(leaseMs: number): Promise<Deletion | null> {
      const [row] = await store.query<DeletionRow>(
        `UPDATE data_deletions SET status = 'running', lease_until = now() + $1 * interval '1 millisecond'
          WHERE id = (SELECT id FROM data_deletions
                       WHERE status IN ('pending', 'running') AND (lease_until IS NULL OR lease_until < now())
                       ORDER BY requested_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING ${COLUMNS}`,
        [leaseMs],
      );
      return row ? toDeletion(row) : null;
    },

    /** Saves the worker's progress after a step and ends its lease, so any replica takes the next step. */
    async save(id: string, progress: Record<string, unknown>, status: DeletionStatus, error: string | null = null): Promise<void> {
      await store.query(
        `UPDATE data_deletions SET progress = $2, status = $3, error = $4, lease_until = NULL,
                finished_at = CASE WHEN $3 IN ('done', 'failed') THEN now() ELSE NULL END
          WHERE id = $1`,
        [id, JSON.stringify(progress), status, error],
      );
    },

    /** Every deleted project's id: the consumers write none of their events. */
    async deletedProjectIds(): Promise<string[]> {
      return (await store.query<{ project_id: string }>('SELECT project_id FROM deleted_projects')).map((r) => r.project_id);
    },
  };
}

export type DeletionsRepo = ReturnType<typeof deletionsRepo>;
