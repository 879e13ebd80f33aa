// Issues a team owns (docs/alerts.md, "Owning an issue"): an assignee per error group and
// comments on it. Appended to MIGRATIONS in migrations.ts after the grouping migrations.
export const OWNERSHIP_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 31,
    name: 'error group assignees and comments',
    sql: `
      -- A user who left keeps no group: the group reads as unassigned.
      ALTER TABLE error_group_states ADD COLUMN assignee_id uuid REFERENCES users(id) ON DELETE SET NULL;
      CREATE INDEX error_group_states_assignee ON error_group_states (project_id, assignee_id, updated_at DESC) WHERE assignee_id IS NOT NULL;
      CREATE TABLE error_group_comments (
        id bigserial PRIMARY KEY,
        project_id uuid NOT NULL,
        fingerprint char(64) NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        actor_kind text NOT NULL CHECK (actor_kind IN ('operator', 'user', 'system')),
        actor_id text,
        actor_name text NOT NULL,
        body text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
        FOREIGN KEY (project_id, fingerprint) REFERENCES error_group_states (project_id, fingerprint) ON DELETE CASCADE
      );
      CREATE INDEX error_group_comments_group ON error_group_comments (project_id, fingerprint, at DESC);
    `,
  },
];
