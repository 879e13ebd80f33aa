import type { FastifyInstance } from 'fastify';
import type { ColumnStore } from '@devtrail/column-store';
import { readErrorGroups, similarGroups, SIMILAR_SCAN } from '@devtrail/kinds';
import { httpError, notFound } from '@devtrail/http';
import { MAX_COMMENTS_PER_GROUP, ownershipRepo, triageRepo, usersRepo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { actorOf } from './actor.ts';
import { fingerprintParam } from './api-schemas.ts';
import { mergesLookup } from './group-merges.ts';
import { assigneeBody, commentBody } from './ownership-schemas.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// Issues a team owns (docs/alerts.md, "Owning an issue"): assigning a group to a member of its
// project, comments on it, and the open groups similar to it, offered for a merge. The
// assignment's history entry is written with it (ownership-repo.ts).

export const OWNERSHIP_PATHS = {
  assignee: '/api/projects/:id/error-groups/:fingerprint/assignee',
  comments: '/api/projects/:id/error-groups/:fingerprint/comments',
  similar: '/api/projects/:id/error-groups/:fingerprint/similar',
};

/** How far back similar groups are looked for. */
export const SIMILAR_DAYS = 30;

export function registerOwnershipRoutes(app: FastifyInstance, store: ColumnStore, relational: RelationalStore, retentionOf: RetentionOf): void {
  const owning = ownershipRepo(relational);
  const users = usersRepo(relational);
  const triage = triageRepo(relational);
  const mergesOf = mergesLookup(relational);
  const target = async (projectId: string, asked: string) => (await mergesOf(projectId)).get(asked) ?? asked;

  app.put(OWNERSHIP_PATHS.assignee, async (request) => {
    const projectId = await projectOf(request);
    const fingerprint = await target(projectId, fingerprintParam.parse(request.params).fingerprint);
    const { user_id } = assigneeBody.parse(request.body);
    const done = await owning.assign(projectId, fingerprint, user_id, await actorOf(request, users));
    if (!done.ok) throw httpError(400, 'That user is not a member of this project.');
    return { fingerprint, assignee: done.assignee };
  });

  app.get(OWNERSHIP_PATHS.comments, async (request) => {
    const projectId = await projectOf(request);
    const fingerprint = await target(projectId, fingerprintParam.parse(request.params).fingerprint);
    return { comments: (await owning.comments(projectId, fingerprint)).map(commentJson) };
  });

  app.post(OWNERSHIP_PATHS.comments, async (request, reply) => {
    const projectId = await projectOf(request);
    const fingerprint = await target(projectId, fingerprintParam.parse(request.params).fingerprint);
    const { body } = commentBody.parse(request.body);
    const comment = await owning.addComment(projectId, fingerprint, await actorOf(request, users), body);
    if (!comment) throw httpError(409, `This group holds ${MAX_COMMENTS_PER_GROUP} comments already.`);
    return reply.code(201).send({ comment: commentJson(comment) });
  });

  app.get(OWNERSHIP_PATHS.similar, async (request) => {
    const projectId = await projectOf(request);
    const merges = await mergesOf(projectId);
    const asked = fingerprintParam.parse(request.params).fingerprint;
    const fingerprint = merges.get(asked) ?? asked;
    const retentionDays = (await retentionOf(projectId)).error;
    const [group] = await readErrorGroups(store, { projectId, retentionDays, fingerprint, merges, range: { fromMs: 0 } });
    if (!group) throw notFound('Error group');
    const candidates = await readErrorGroups(store, { projectId, retentionDays, merges, range: { fromMs: Date.now() - SIMILAR_DAYS * 86_400_000 }, limit: SIMILAR_SCAN });
    const states = await triage.states(
      projectId,
      candidates.map((c) => c.fingerprint),
    );
    const open = candidates.filter((c) => (states.get(c.fingerprint)?.status ?? 'unresolved') === 'unresolved');
    const byFp = new Map(open.map((c) => [c.fingerprint, c]));
    return {
      fingerprint,
      similar: similarGroups(group, open).map((s) => {
        const g = byFp.get(s.fingerprint)!;
        return { ...s, count: g.count, last_seen: g.last_seen, error_type: g.latest.error_type, error_message: g.latest.error_message.slice(0, 300) };
      }),
    };
  });
}

const commentJson = (c: { id: string; at: string; actor: { kind: string; id: string | null; name: string }; body: string }) => ({
  id: c.id,
  at: c.at,
  actor: { kind: c.actor.kind, id: c.actor.id, name: c.actor.name },
  body: c.body,
});
