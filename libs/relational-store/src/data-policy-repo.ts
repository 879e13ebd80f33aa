import type { RelationalStore } from './relational-store.ts';
import { isUuid, projectsRepo } from './projects-repo.ts';

// A project's data policy (retention, scrubbing, quotas, spike guard, sampling) as the JSON
// the admin API validated (docs/data.md); this repository stores it and does not read it.
// A change NOTIFYs like any project setting, so every receiver drops its cached grant and
// applies the new policy to the next request.

export function dataPolicyRepo(store: RelationalStore) {
  const projects = projectsRepo(store);
  return {
    /** The stored policy; `{}` (every default) when none was ever set, null for no such project. */
    async get(projectId: string): Promise<{ policy: unknown; updatedAt: string | null } | null> {
      if (!isUuid(projectId)) return null;
      const [row] = await store.query<{ policy: unknown; updated_at: Date | string | null }>(
        'SELECT d.policy, d.updated_at FROM projects p LEFT JOIN data_policies d ON d.project_id = p.id WHERE p.id = $1',
        [projectId],
      );
      if (!row) return null;
      return { policy: row.policy ?? {}, updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null };
    },

    /** Replaces the policy; false when the project does not exist. */
    async set(projectId: string, policy: unknown): Promise<boolean> {
      return projects.update(projectId, (tx) =>
        tx.query(
          `INSERT INTO data_policies (project_id, policy) VALUES ($1, $2)
           ON CONFLICT (project_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = now()`,
          [projectId, JSON.stringify(policy)],
        ),
      );
    },
  };
}

export type DataPolicyRepo = ReturnType<typeof dataPolicyRepo>;
