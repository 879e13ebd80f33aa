import { z } from 'zod';
import type { ColumnStore } from '@devtrail/column-store';
import { readErrorGroups, similarGroups, SIMILAR_SCAN } from '@devtrail/kinds';
import { badRequest, httpError, notFound } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import { MAX_COMMENTS_PER_GROUP, ownershipRepo, triageRepo, usersRepo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { actorOf } from '../api/actor.ts';
import { fingerprintParam } from '../api/api-schemas.ts';
import type { MergesOf } from './group-merges.ts';
import { assigneeBody, commentBody } from './ownership-schemas.ts';
import { notifyAssignment } from './assignment-alert.ts';
import { answers, OPERATOR, projectAnd, projectParams } from '../api/project-route.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// Issues a team owns (docs/alerts.md, "Owning an issue"): assigning a group to a member of its
// project, comments on it, and the open groups similar to it, offered for a merge. Each route
// is declared once (libs/http route.ts); the assignment's history entry is written with it
// (ownership-repo.ts).

/** How far back similar groups are looked for. */
export const SIMILAR_DAYS = 30;

export interface OwnershipDeps {
  reads: ColumnStore;
  relational: RelationalStore;
  retentionOf: RetentionOf;
  mergesOf: MergesOf;
  /** DEVTRAIL_PUBLIC_URL, for the link in an assignment's notification. */
  publicUrl?: string;
}

const groupParams = projectAnd(fingerprintParam);
const person = z.object({ id: z.string().uuid(), name: z.string() });
const actor = z.object({ kind: z.enum(['operator', 'user', 'system']), id: z.string().nullable(), name: z.string() });
const comment = z.object({ id: z.string(), at: z.string().datetime(), actor, body: z.string() }).openapi('GroupComment');
const similar = z.object({
  fingerprint: z.string(),
  reason: z.enum(['frames', 'message']).openapi({ description: 'frames: half or more of the in-app frames shared; message: one type and stripped message.' }),
  overlap: z.number().openapi({ description: 'Share of the smaller set of in-app frames both hold (1 for one message).' }),
  count: z.number().int(),
  last_seen: z.string().datetime(),
  error_type: z.string(),
  error_message: z.string(),
});

/** The group a request names: a merged group answers as its target. */
const targetOf = async (d: OwnershipDeps, projectId: string, asked: string) => (await d.mergesOf(projectId)).get(asked) ?? asked;

const commentJson = (c: { id: string; at: string; actor: { kind: string; id: string | null; name: string }; body: string }) => ({
  id: c.id,
  at: c.at,
  actor: { kind: c.actor.kind, id: c.actor.id, name: c.actor.name },
  body: c.body,
});

export const OWNERSHIP_ROUTES: RouteGroup<OwnershipDeps> = {
  name: 'owning issues',
  description: 'Assignees, comments and similar issues of error groups (docs/alerts.md#owning-an-issue); operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'put',
      path: '/api/projects/:id/error-groups/:fingerprint/assignee',
      summary: 'Assign the group to a member of the project (null: unassign); recorded in its history',
      params: groupParams,
      body: assigneeBody,
      answers: answers(z.object({ fingerprint: z.string(), assignee: person.nullable() })),
      async handle(d, { projectId, params, body }, request) {
        const fingerprint = await targetOf(d, projectId, params.fingerprint);
        const by = await actorOf(request, usersRepo(d.relational));
        const done = await ownershipRepo(d.relational).assign(projectId, fingerprint, body.user_id, by);
        if (!done.ok) throw badRequest('That user is not a member of this project', 'a member of the project', 'another user', ['user_id']);
        if (done.changed && done.assignee) {
          const [group] = await readErrorGroups(d.reads, { projectId, retentionDays: (await d.retentionOf(projectId)).error, fingerprint, range: { fromMs: 0 } });
          await notifyAssignment(d.relational, projectId, group, fingerprint, done.assignee, by.name, d.publicUrl);
        }
        return { fingerprint, assignee: done.assignee };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/error-groups/:fingerprint/comments',
      summary: "The group's comments, newest first (at most 100)",
      params: groupParams,
      answers: answers(z.object({ comments: z.array(comment) })),
      async handle(d, { projectId, params }) {
        const fingerprint = await targetOf(d, projectId, params.fingerprint);
        return { comments: (await ownershipRepo(d.relational).comments(projectId, fingerprint)).map(commentJson) };
      },
    }),
    route({
      method: 'post',
      path: '/api/projects/:id/error-groups/:fingerprint/comments',
      summary: 'Comment on the group (1 to 2,000 characters)',
      params: groupParams,
      body: commentBody,
      answers: answers(
        z.object({ comment }),
        (docs) => ({ 409: docs.errorResponse('The group holds its most comments already.', `This group holds ${MAX_COMMENTS_PER_GROUP} comments already.`) }),
        201,
      ),
      async handle(d, { projectId, params, body }, request, reply) {
        const fingerprint = await targetOf(d, projectId, params.fingerprint);
        const added = await ownershipRepo(d.relational).addComment(projectId, fingerprint, await actorOf(request, usersRepo(d.relational)), body.body);
        if (!added) throw httpError(409, `This group holds ${MAX_COMMENTS_PER_GROUP} comments already.`);
        return reply.code(201).send({ comment: commentJson(added) });
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/error-groups/:fingerprint/similar',
      summary: 'Open groups of the last 30 days whose in-app frames or stripped message overlap this one: candidates for a merge',
      description: `Looks at the ${SIMILAR_SCAN} groups seen most recently; answers at most 10.`,
      params: groupParams,
      answers: answers(z.object({ fingerprint: z.string(), similar: z.array(similar) }), (docs) => ({
        404: docs.errorResponse('Unknown project or error group.', notFound('Error group').message),
      })),
      async handle(d, { projectId, params }) {
        const merges = await d.mergesOf(projectId);
        const fingerprint = merges.get(params.fingerprint) ?? params.fingerprint;
        const retentionDays = (await d.retentionOf(projectId)).error;
        const [group] = await readErrorGroups(d.reads, { projectId, retentionDays, fingerprint, merges, range: { fromMs: 0 } });
        if (!group) throw notFound('Error group');
        const candidates = await readErrorGroups(d.reads, {
          projectId,
          retentionDays,
          merges,
          range: { fromMs: Date.now() - SIMILAR_DAYS * 86_400_000 },
          limit: SIMILAR_SCAN,
        });
        const states = await triageRepo(d.relational).states(
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
      },
    }),
  ],
};
