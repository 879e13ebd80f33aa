// Error groups merged by hand (docs/fingerprint.md, "Merging groups"): appended to MIGRATIONS
// in migrations.ts. Numbered after the issue-sized gap so that other features' migrations
// may take the versions before it.
export const GROUPING_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 30,
    name: 'error group merges',
    sql: `
      -- A group merged into another: its events (those stored and those to come) are the
      -- target's. Chains are flattened when made, so a source names its final target.
      CREATE TABLE error_group_merges (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        source char(64) NOT NULL CHECK (source ~ '^[0-9a-f]{64}$'),
        target char(64) NOT NULL CHECK (target ~ '^[0-9a-f]{64}$' AND target <> source),
        merged_at timestamptz NOT NULL DEFAULT now(),
        actor_kind text NOT NULL CHECK (actor_kind IN ('operator', 'user', 'system')),
        actor_id text,
        actor_name text NOT NULL,
        PRIMARY KEY (project_id, source)
      );
      CREATE INDEX error_group_merges_target ON error_group_merges (project_id, target);
    `,
  },
];
