import { LABEL_PATTERN_SQL, MAX_COMMIT_MESSAGE_CHARS, NAME_PATTERN_SQL } from './prompt-limits.ts';

// The prompt registry (docs/api.md, "Prompts"): named prompts of a project, their immutable
// numbered versions and the labels that point at one version each. Appended to MIGRATIONS in
// migrations.ts after version 40.
export const PROMPT_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 41,
    name: 'prompt registry: prompts, versions, labels',
    sql: `
      CREATE TABLE prompts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (name ~ '${NAME_PATTERN_SQL}'),
        type text NOT NULL CHECK (type IN ('text', 'chat')),
        latest_version integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, name)
      );
      -- A version never changes once written: its content, config and who made it.
      CREATE TABLE prompt_versions (
        prompt_id uuid NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        content jsonb NOT NULL,
        config jsonb NOT NULL DEFAULT '{}',
        commit_message text CHECK (commit_message IS NULL OR length(commit_message) <= ${MAX_COMMIT_MESSAGE_CHARS}),
        created_by text NOT NULL CHECK (length(created_by) <= 200),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (prompt_id, version)
      );
      -- "latest" is never stored: it always names the newest version.
      CREATE TABLE prompt_labels (
        prompt_id uuid NOT NULL,
        label text NOT NULL CHECK (label ~ '${LABEL_PATTERN_SQL}' AND label <> 'latest'),
        version integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (prompt_id, label),
        FOREIGN KEY (prompt_id, version) REFERENCES prompt_versions (prompt_id, version) ON DELETE CASCADE
      );
    `,
  },
];
