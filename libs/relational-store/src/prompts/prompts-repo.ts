import type { RelationalStore, SqlExecutor } from '../relational-store.ts';
import { LATEST_LABEL, MAX_LABELS_PER_PROMPT, MAX_PROMPTS_PER_PROJECT, MAX_VERSIONS_PER_PROMPT } from './prompt-limits.ts';

// A project's prompt registry (docs/api.md, "Prompts"): prompts by name, each with immutable
// numbered versions and movable labels. "latest" is computed (the newest version), the other
// labels are rows. Writes to one project's prompts run one at a time (an advisory lock per
// project), so the bounds hold under concurrent writers, and each NOTIFYs PROMPT_CHANGED_CHANNEL
// with the project id, so the receivers drop their cached reads of its prompts at once.

/** Where a change to a project's prompts is announced (payload: the project id). */
export const PROMPT_CHANGED_CHANNEL = 'devtrail_prompt_changed';
const notifyChanged = (tx: SqlExecutor, projectId: string) => tx.query('SELECT pg_notify($1, $2)', [PROMPT_CHANGED_CHANNEL, projectId]);

export type PromptType = 'text' | 'chat';
export interface ChatMessage {
  role: string;
  content: string;
}
/** A text prompt's text, or a chat prompt's messages; both may hold {{variables}}. */
export type PromptContent = string | ChatMessage[];

export interface PromptSummary {
  name: string;
  type: PromptType;
  latestVersion: number;
  /** Each label and the version it names, latest included. */
  labels: Record<string, number>;
  createdAt: string;
  updatedAt: string;
}
export interface PromptVersionInfo {
  version: number;
  commitMessage: string | null;
  createdBy: string;
  createdAt: string;
  /** The labels naming this version, latest included. */
  labels: string[];
}
export interface PromptVersion extends PromptVersionInfo {
  name: string;
  type: PromptType;
  content: PromptContent;
  config: Record<string, unknown>;
}
export interface Prompt extends PromptSummary {
  /** Newest first. */
  versions: PromptVersionInfo[];
}
export interface NewPromptVersion {
  name: string;
  type: PromptType;
  content: PromptContent;
  config: Record<string, unknown>;
  commitMessage: string | null;
  /** Labels moved to the new version (latest is implied). */
  labels: string[];
  /** Who made it, as shown (a user's name or "operator token"). */
  createdBy: string;
}
export type PromptRefusal = 'too_many_prompts' | 'too_many_versions' | 'too_many_labels' | 'type_changed' | 'unknown_prompt' | 'unknown_version';
export type Refused = { ok: false; reason: PromptRefusal };

interface PromptRow {
  id: string;
  name: string;
  type: PromptType;
  latest_version: number;
  created_at: Date | string;
  updated_at: Date | string;
}
interface VersionRow {
  version: number;
  commit_message: string | null;
  created_by: string;
  created_at: Date | string;
}
const iso = (t: Date | string) => new Date(t).toISOString();
const refused = (reason: PromptRefusal): Refused => ({ ok: false, reason });
const PROMPT_COLUMNS = 'id, name, type, latest_version, created_at, updated_at';

async function labelsOf(db: SqlExecutor, promptId: string, latest: number): Promise<Record<string, number>> {
  const rows = await db.query<{ label: string; version: number }>('SELECT label, version FROM prompt_labels WHERE prompt_id = $1 ORDER BY label', [promptId]);
  return { [LATEST_LABEL]: latest, ...Object.fromEntries(rows.map((r) => [r.label, Number(r.version)])) };
}
const summaryOf = (p: PromptRow, labels: Record<string, number>): PromptSummary => ({
  name: p.name,
  type: p.type,
  latestVersion: Number(p.latest_version),
  labels,
  createdAt: iso(p.created_at),
  updatedAt: iso(p.updated_at),
});
const labelsNaming = (labels: Record<string, number>, version: number) =>
  Object.entries(labels)
    .filter(([, v]) => v === version)
    .map(([l]) => l);

async function promptOf(db: SqlExecutor, projectId: string, name: string, lock = false): Promise<PromptRow | undefined> {
  const [row] = await db.query<PromptRow>(`SELECT ${PROMPT_COLUMNS} FROM prompts WHERE project_id = $1 AND name = $2${lock ? ' FOR UPDATE' : ''}`, [projectId, name]);
  return row;
}

async function versionOf(db: SqlExecutor, p: PromptRow, version: number): Promise<PromptVersion | null> {
  const [v] = await db.query<VersionRow & { content: PromptContent; config: Record<string, unknown> }>(
    'SELECT version, content, config, commit_message, created_by, created_at FROM prompt_versions WHERE prompt_id = $1 AND version = $2',
    [p.id, version],
  );
  if (!v) return null;
  const labels = await labelsOf(db, p.id, Number(p.latest_version));
  return {
    name: p.name,
    type: p.type,
    version: Number(v.version),
    content: v.content,
    config: v.config,
    commitMessage: v.commit_message,
    createdBy: v.created_by,
    createdAt: iso(v.created_at),
    labels: labelsNaming(labels, Number(v.version)),
  };
}

/** Points each label at `version`, refusing past MAX_LABELS_PER_PROMPT distinct labels. */
async function moveLabels(tx: SqlExecutor, promptId: string, labels: string[], version: number): Promise<boolean> {
  const moved = [...new Set(labels)].filter((l) => l !== LATEST_LABEL);
  if (moved.length === 0) return true;
  const [{ n }] = await tx.query<{ n: string | number }>('SELECT count(*) AS n FROM prompt_labels WHERE prompt_id = $1 AND NOT (label = ANY($2::text[]))', [
    promptId,
    moved,
  ]);
  if (Number(n) + moved.length > MAX_LABELS_PER_PROMPT) return false;
  for (const label of moved) {
    await tx.query(
      `INSERT INTO prompt_labels (prompt_id, label, version) VALUES ($1, $2, $3)
       ON CONFLICT (prompt_id, label) DO UPDATE SET version = EXCLUDED.version, updated_at = now()`,
      [promptId, label, version],
    );
  }
  await tx.query('UPDATE prompts SET updated_at = now() WHERE id = $1', [promptId]);
  return true;
}

/** One writer per project's prompts at a time (the bounds are counted under it). */
const lockProject = (tx: SqlExecutor, projectId: string) => tx.query("SELECT pg_advisory_xact_lock(hashtextextended('prompts:' || $1, 0))", [projectId]);

export function promptsRepo(store: RelationalStore) {
  return {
    /** The project's prompts by name (at most MAX_PROMPTS_PER_PROJECT), with their labels. */
    async list(projectId: string): Promise<PromptSummary[]> {
      const prompts = await store.query<PromptRow>(`SELECT ${PROMPT_COLUMNS} FROM prompts WHERE project_id = $1 ORDER BY name`, [projectId]);
      const labels = await store.query<{ prompt_id: string; label: string; version: number }>(
        'SELECT l.prompt_id, l.label, l.version FROM prompt_labels l JOIN prompts p ON p.id = l.prompt_id WHERE p.project_id = $1 ORDER BY l.label',
        [projectId],
      );
      return prompts.map((p) =>
        summaryOf(p, {
          [LATEST_LABEL]: Number(p.latest_version),
          ...Object.fromEntries(labels.filter((l) => l.prompt_id === p.id).map((l) => [l.label, Number(l.version)])),
        }),
      );
    },

    /** A prompt with its versions, newest first (their content: `version`); null when the project has none of that name. */
    async get(projectId: string, name: string): Promise<Prompt | null> {
      const p = await promptOf(store, projectId, name);
      if (!p) return null;
      const labels = await labelsOf(store, p.id, Number(p.latest_version));
      const rows = await store.query<VersionRow>(
        'SELECT version, commit_message, created_by, created_at FROM prompt_versions WHERE prompt_id = $1 ORDER BY version DESC',
        [p.id],
      );
      return {
        ...summaryOf(p, labels),
        versions: rows.map((v) => ({
          version: Number(v.version),
          commitMessage: v.commit_message,
          createdBy: v.created_by,
          createdAt: iso(v.created_at),
          labels: labelsNaming(labels, Number(v.version)),
        })),
      };
    },

    /** One version with its content and config; by number, or by the label naming it (latest included). */
    async version(projectId: string, name: string, ref: { version: number } | { label: string }): Promise<PromptVersion | null> {
      const p = await promptOf(store, projectId, name);
      if (!p) return null;
      if ('version' in ref) return versionOf(store, p, ref.version);
      if (ref.label === LATEST_LABEL) return versionOf(store, p, Number(p.latest_version));
      const [l] = await store.query<{ version: number }>('SELECT version FROM prompt_labels WHERE prompt_id = $1 AND label = $2', [p.id, ref.label]);
      return l ? versionOf(store, p, Number(l.version)) : null;
    },

    /** Adds a version (creating the prompt at its first), with the labels moved to it. */
    async create(projectId: string, v: NewPromptVersion): Promise<{ ok: true; created: boolean; version: PromptVersion } | Refused> {
      return store
        .transaction(async (tx) => {
          await lockProject(tx, projectId);
          let p = await promptOf(tx, projectId, v.name, true);
          const created = !p;
          if (!p) {
            const [{ n }] = await tx.query<{ n: string | number }>('SELECT count(*) AS n FROM prompts WHERE project_id = $1', [projectId]);
            if (Number(n) >= MAX_PROMPTS_PER_PROJECT) return refused('too_many_prompts');
            [p] = await tx.query<PromptRow>(`INSERT INTO prompts (project_id, name, type) VALUES ($1, $2, $3) RETURNING ${PROMPT_COLUMNS}`, [projectId, v.name, v.type]);
          } else if (p.type !== v.type) return refused('type_changed');
          const next = Number(p.latest_version) + 1;
          if (next > MAX_VERSIONS_PER_PROMPT) return refused('too_many_versions');
          await tx.query(
            `INSERT INTO prompt_versions (prompt_id, version, content, config, commit_message, created_by)
           VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6)`,
            [p.id, next, JSON.stringify(v.content), JSON.stringify(v.config), v.commitMessage, v.createdBy],
          );
          await tx.query('UPDATE prompts SET latest_version = $2, updated_at = now() WHERE id = $1', [p.id, next]);
          const row = { ...p, latest_version: next };
          // A refused label set undoes the version too: the transaction rolls back.
          if (!(await moveLabels(tx, p.id, v.labels, next))) throw new LabelsRefused();
          await notifyChanged(tx, projectId);
          return { ok: true as const, created, version: (await versionOf(tx, row, next))! };
        })
        .catch((err) => {
          if (err instanceof LabelsRefused) return refused('too_many_labels');
          throw err;
        });
    },

    /** Points a label at an existing version (moving it from wherever it was). */
    async setLabel(projectId: string, name: string, label: string, version: number): Promise<{ ok: true; version: PromptVersion } | Refused> {
      return store.transaction(async (tx) => {
        await lockProject(tx, projectId);
        const p = await promptOf(tx, projectId, name, true);
        if (!p) return refused('unknown_prompt');
        const [exists] = await tx.query('SELECT 1 FROM prompt_versions WHERE prompt_id = $1 AND version = $2', [p.id, version]);
        if (!exists) return refused('unknown_version');
        if (!(await moveLabels(tx, p.id, [label], version))) return refused('too_many_labels');
        await notifyChanged(tx, projectId);
        return { ok: true as const, version: (await versionOf(tx, p, version))! };
      });
    },

    /** Removes a label; false when the prompt or the label does not exist. */
    async removeLabel(projectId: string, name: string, label: string): Promise<boolean> {
      return store.transaction(async (tx) => {
        const rows = await tx.query(
          'DELETE FROM prompt_labels l USING prompts p WHERE p.id = l.prompt_id AND p.project_id = $1 AND p.name = $2 AND l.label = $3 RETURNING l.label',
          [projectId, name, label],
        );
        if (rows.length > 0) await notifyChanged(tx, projectId);
        return rows.length > 0;
      });
    },
  };
}

class LabelsRefused extends Error {}

export type PromptsRepo = ReturnType<typeof promptsRepo>;
