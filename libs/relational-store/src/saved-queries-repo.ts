import type { RelationalStore } from './relational-store.ts';

// Log searches a project's members saved by name (the logs explorer's "Saved"), shared by
// everyone who sees the project. Saving under a taken name replaces that search.

export interface SavedQuery {
  id: string;
  name: string;
  /** The search text (docs/dashboard.md, "Search syntax"). */
  query: string;
  /** A relative time range to open it with ("1h", "7d"), or null for the page's. */
  range: string | null;
  createdAt: string;
}

/** At most this many saved searches per project. */
export const MAX_SAVED_QUERIES = 200;

interface Row {
  id: string;
  name: string;
  query: string;
  range: string | null;
  created_at: Date | string;
}
const toSaved = (r: Row): SavedQuery => ({ id: r.id, name: r.name, query: r.query, range: r.range, createdAt: new Date(r.created_at).toISOString() });

export function savedQueriesRepo(store: RelationalStore) {
  return {
    /** By name. */
    async list(projectId: string): Promise<SavedQuery[]> {
      const rows = await store.query<Row>('SELECT id, name, query, range, created_at FROM saved_queries WHERE project_id = $1 ORDER BY name', [projectId]);
      return rows.map(toSaved);
    },

    /** Creates or replaces the search of this name; null when the project already has MAX_SAVED_QUERIES others. */
    async save(projectId: string, s: { name: string; query: string; range: string | null; userId: string | null }): Promise<SavedQuery | null> {
      const [row] = await store.query<Row>(
        `INSERT INTO saved_queries (project_id, name, query, range, created_by)
         SELECT $1, $2, $3, $4, $5
          WHERE (SELECT count(*) FROM saved_queries WHERE project_id = $1 AND name <> $2) < $6
         ON CONFLICT (project_id, name) DO UPDATE SET query = EXCLUDED.query, range = EXCLUDED.range, created_by = EXCLUDED.created_by, created_at = now()
         RETURNING id, name, query, range, created_at`,
        [projectId, s.name, s.query, s.range, s.userId, MAX_SAVED_QUERIES],
      );
      return row ? toSaved(row) : null;
    },

    /** Whether a search of this project with this id existed. */
    async remove(projectId: string, id: string): Promise<boolean> {
      const rows = await store.query('DELETE FROM saved_queries WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, id]);
      return rows.length > 0;
    },
  };
}

export type SavedQueriesRepo = ReturnType<typeof savedQueriesRepo>;
