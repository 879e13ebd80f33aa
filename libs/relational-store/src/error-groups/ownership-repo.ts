import type { RelationalStore } from '../relational-store.ts';
import { addHistory, type Actor } from './triage-repo.ts';

// Issues a team owns (docs/alerts.md, "Owning an issue"): who a group is assigned to, and the
// comments on it. An assignee is a member of the group's project (or the owner, who sees every
// project); each assignment is a history entry with who and when. Comments are bounded per
// group and in size, and move with a merge (error-groups-repo.ts).

/** Comments a group holds; a further one is refused (409). */
export const MAX_COMMENTS_PER_GROUP = 500;
/** Characters of one comment. */
export const MAX_COMMENT_CHARS = 2000;
/** Comments one read answers, newest first. */
export const COMMENTS_PAGE = 100;

export interface Assignee {
  id: string;
  name: string;
}

export interface Comment {
  id: string;
  at: string;
  actor: Actor;
  body: string;
}

export type AssignRefusal = 'not_a_member';

export function ownershipRepo(store: RelationalStore) {
  return {
    /** Assigns a group (null: unassigns), with its history entry; refuses a user who is not on the project. */
    async assign(
      projectId: string,
      fingerprint: string,
      userId: string | null,
      actor: Actor,
    ): Promise<{ ok: true; assignee: Assignee | null; changed: boolean } | { ok: false; reason: AssignRefusal }> {
      return store.transaction(async (tx) => {
        let assignee: Assignee | null = null;
        if (userId !== null) {
          const [u] = await tx.query<{ id: string; username: string }>(
            `SELECT u.id, u.username FROM users u
              WHERE u.id = $2 AND u.disabled_at IS NULL AND (u.is_owner OR EXISTS (SELECT 1 FROM project_members m WHERE m.project_id = $1 AND m.user_id = u.id))`,
            [projectId, userId],
          );
          if (!u) return { ok: false as const, reason: 'not_a_member' as const };
          assignee = { id: u.id, name: u.username };
        }
        await tx.query('INSERT INTO error_group_states (project_id, fingerprint) VALUES ($1, $2) ON CONFLICT DO NOTHING', [projectId, fingerprint]);
        const [before] = await tx.query<{ status: string; assignee_id: string | null }>(
          'SELECT status, assignee_id FROM error_group_states WHERE project_id = $1 AND fingerprint = $2 FOR UPDATE',
          [projectId, fingerprint],
        );
        if ((before.assignee_id ?? null) === (assignee?.id ?? null)) return { ok: true as const, assignee, changed: false };
        await tx.query('UPDATE error_group_states SET assignee_id = $3, updated_at = now() WHERE project_id = $1 AND fingerprint = $2', [
          projectId,
          fingerprint,
          assignee?.id ?? null,
        ]);
        await addHistory(
          tx,
          projectId,
          fingerprint,
          actor,
          assignee ? 'assign' : 'unassign',
          before.status,
          before.status,
          assignee ? { assignee: assignee.name, assignee_id: assignee.id } : {},
        );
        return { ok: true as const, assignee, changed: true };
      });
    },

    /** The assignees of some groups (absent: unassigned). */
    async assignees(projectId: string, fingerprints: string[]): Promise<Map<string, Assignee>> {
      if (fingerprints.length === 0) return new Map();
      const rows = await store.query<{ fingerprint: string; id: string; username: string }>(
        `SELECT s.fingerprint, u.id, u.username FROM error_group_states s JOIN users u ON u.id = s.assignee_id
          WHERE s.project_id = $1 AND s.fingerprint = ANY($2::text[])`,
        [projectId, fingerprints],
      );
      return new Map(rows.map((r) => [r.fingerprint.trim(), { id: r.id, name: r.username }]));
    },

    /** Groups assigned to a user, most recently changed first. */
    async assignedTo(projectId: string, userId: string, limit: number): Promise<string[]> {
      const rows = await store.query<{ fingerprint: string }>(
        'SELECT fingerprint FROM error_group_states WHERE project_id = $1 AND assignee_id = $2 ORDER BY updated_at DESC LIMIT $3',
        [projectId, userId, limit],
      );
      return rows.map((r) => r.fingerprint.trim());
    },

    /** A comment on a group, unless it holds MAX_COMMENTS_PER_GROUP already. */
    async addComment(projectId: string, fingerprint: string, actor: Actor, body: string): Promise<Comment | null> {
      return store.transaction(async (tx) => {
        await tx.query('INSERT INTO error_group_states (project_id, fingerprint) VALUES ($1, $2) ON CONFLICT DO NOTHING', [projectId, fingerprint]);
        // The state row is the group's lock: two comments at once are counted one after the other.
        await tx.query('SELECT 1 FROM error_group_states WHERE project_id = $1 AND fingerprint = $2 FOR UPDATE', [projectId, fingerprint]);
        const [{ n }] = await tx.query<{ n: number | string }>('SELECT count(*) AS n FROM error_group_comments WHERE project_id = $1 AND fingerprint = $2', [
          projectId,
          fingerprint,
        ]);
        if (Number(n) >= MAX_COMMENTS_PER_GROUP) return null;
        const [row] = await tx.query<{ id: string | number; at: Date | string }>(
          `INSERT INTO error_group_comments (project_id, fingerprint, actor_kind, actor_id, actor_name, body) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, at`,
          [projectId, fingerprint, actor.kind, actor.id, actor.name, body],
        );
        return { id: String(row.id), at: new Date(row.at).toISOString(), actor, body };
      });
    },

    /** A group's comments, newest first, at most COMMENTS_PAGE. */
    async comments(projectId: string, fingerprint: string): Promise<Comment[]> {
      const rows = await store.query<{ id: string | number; at: Date | string; actor_kind: Actor['kind']; actor_id: string | null; actor_name: string; body: string }>(
        'SELECT id, at, actor_kind, actor_id, actor_name, body FROM error_group_comments WHERE project_id = $1 AND fingerprint = $2 ORDER BY at DESC, id DESC LIMIT $3',
        [projectId, fingerprint, COMMENTS_PAGE],
      );
      return rows.map((r) => ({ id: String(r.id), at: new Date(r.at).toISOString(), actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name }, body: r.body }));
    },
  };
}

export type OwnershipRepo = ReturnType<typeof ownershipRepo>;
