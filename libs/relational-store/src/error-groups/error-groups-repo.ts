import type { RelationalStore } from '../relational-store.ts';
import { addHistory, lockStates, saveState, type Actor } from './triage-repo.ts';
import { PROJECT_CHANGED_CHANNEL } from '../projects-repo.ts';

// Which group an error event joins (docs/fingerprint.md, "Upgrading" and "Merging groups"):
// a group merged by hand into another sends its events there; an event whose previous-rule
// fingerprint names a group that rule made (one the alerts consumer keeps a state of, seen in
// the last PREVIOUS_RULE_DAYS) joins that group. The receiver asks before it produces, so the
// ingest answer names the group the event joined.

/** A group made under the previous rule takes new events while it was seen within this many days. */
export const PREVIOUS_RULE_DAYS = 90;
/** Merges per project: each is one entry of every read of the project's groups. */
export const MAX_MERGES = 10_000;

export interface GroupLookup {
  /** Merged group -> the group it was merged into. */
  merged: Map<string, string>;
  /** Previous-rule fingerprints that name a live group. */
  previous: Set<string>;
}

export interface Merge {
  source: string;
  target: string;
  mergedAt: string;
  actor: Actor;
}

export type MergeRefusal = 'same_group' | 'already_merged' | 'too_many_merges';

export function errorGroupsRepo(store: RelationalStore) {
  return {
    /** One round trip: which of these fingerprints were merged, and which previous-rule ones name a group. */
    async lookup(projectId: string, fingerprints: string[], previous: string[]): Promise<GroupLookup> {
      const rows = await store.query<{ what: string; fp: string; target: string }>(
        `SELECT 'merged' AS what, source AS fp, target FROM error_group_merges WHERE project_id = $1 AND source = ANY($2::text[])
         UNION ALL
         SELECT 'previous', fingerprint, fingerprint FROM error_group_states
          WHERE project_id = $1 AND fingerprint = ANY($3::text[]) AND (last_seen IS NULL OR last_seen > now() - make_interval(days => $4))`,
        [projectId, [...new Set([...fingerprints, ...previous])], [...new Set(previous)], PREVIOUS_RULE_DAYS],
      );
      const out: GroupLookup = { merged: new Map(), previous: new Set() };
      for (const r of rows) {
        if (r.what === 'merged') out.merged.set(r.fp.trim(), r.target.trim());
        else out.previous.add(r.fp.trim());
      }
      return out;
    },

    /** The project's merges, newest first (bounded by MAX_MERGES). */
    async merges(projectId: string): Promise<Merge[]> {
      const rows = await store.query<{
        source: string;
        target: string;
        merged_at: Date | string;
        actor_kind: Actor['kind'];
        actor_id: string | null;
        actor_name: string;
      }>('SELECT source, target, merged_at, actor_kind, actor_id, actor_name FROM error_group_merges WHERE project_id = $1 ORDER BY merged_at DESC LIMIT $2', [
        projectId,
        MAX_MERGES,
      ]);
      return rows.map((r) => ({
        source: r.source.trim(),
        target: r.target.trim(),
        mergedAt: new Date(r.merged_at).toISOString(),
        actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name },
      }));
    },

    /**
     * Merges `source` into `target` (itself followed to where it was merged): the source's
     * later events join the target, its history moves there with an entry saying so, its
     * first and last seen widen the target's; groups merged into the source follow it.
     */
    async merge(projectId: string, source: string, target: string, actor: Actor): Promise<{ ok: true; target: string } | { ok: false; reason: MergeRefusal }> {
      return store.transaction(async (tx) => {
        const [into] = await tx.query<{ target: string }>('SELECT target FROM error_group_merges WHERE project_id = $1 AND source = $2', [projectId, target]);
        const final = into ? into.target.trim() : target;
        if (final === source) return { ok: false, reason: 'same_group' as const };
        const [done] = await tx.query('SELECT 1 FROM error_group_merges WHERE project_id = $1 AND source = $2', [projectId, source]);
        if (done) return { ok: false, reason: 'already_merged' as const };
        const [{ n }] = await tx.query<{ n: number | string }>('SELECT count(*) AS n FROM error_group_merges WHERE project_id = $1', [projectId]);
        if (Number(n) >= MAX_MERGES) return { ok: false, reason: 'too_many_merges' as const };
        await tx.query('INSERT INTO error_group_merges (project_id, source, target, actor_kind, actor_id, actor_name) VALUES ($1, $2, $3, $4, $5, $6)', [
          projectId,
          source,
          final,
          actor.kind,
          actor.id,
          actor.name,
        ]);
        await tx.query('UPDATE error_group_merges SET target = $3 WHERE project_id = $1 AND target = $2', [projectId, source, final]);
        for (const fp of [source, final])
          await tx.query('INSERT INTO error_group_states (project_id, fingerprint) VALUES ($1, $2) ON CONFLICT DO NOTHING', [projectId, fp]);
        const states = await lockStates(tx, projectId, [source, final]);
        const from = states.get(source)!;
        const to = states.get(final)!;
        const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);
        const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);
        const firstFromSource = from.firstSeen !== null && (to.firstSeen === null || from.firstSeen < to.firstSeen);
        const lastFromSource = from.lastSeen !== null && (to.lastSeen === null || from.lastSeen > to.lastSeen);
        await saveState(tx, {
          ...to,
          firstSeen: earlier(to.firstSeen, from.firstSeen),
          lastSeen: later(to.lastSeen, from.lastSeen),
          firstRelease: firstFromSource ? from.firstRelease : to.firstRelease,
          lastRelease: lastFromSource ? from.lastRelease : to.lastRelease,
        });
        await tx.query('UPDATE error_group_history SET fingerprint = $3 WHERE project_id = $1 AND fingerprint = $2', [projectId, source, final]);
        await tx.query('UPDATE error_group_comments SET fingerprint = $3 WHERE project_id = $1 AND fingerprint = $2', [projectId, source, final]);
        // The target keeps its assignee; an unassigned target takes the merged group's.
        await tx.query(
          `UPDATE error_group_states t SET assignee_id = s.assignee_id FROM error_group_states s
            WHERE t.project_id = $1 AND t.fingerprint = $3 AND t.assignee_id IS NULL AND s.project_id = $1 AND s.fingerprint = $2`,
          [projectId, source, final],
        );
        await tx.query('DELETE FROM error_group_states WHERE project_id = $1 AND fingerprint = $2', [projectId, source]);
        await addHistory(tx, projectId, final, actor, 'merge', to.status, to.status, { merged: source });
        // Every receiver drops what it remembers of the project's groups.
        await tx.query('SELECT pg_notify($1, $2)', [PROJECT_CHANGED_CHANNEL, projectId]);
        return { ok: true as const, target: final };
      });
    },
  };
}

export type ErrorGroupsRepo = ReturnType<typeof errorGroupsRepo>;
