import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { httpError, notFound } from '@devtrail/http';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { deletionsRepo, type Deletion, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { answers, OPERATOR, projectParams } from '../api/project-route.ts';
import { deleteEventsBody, deletionIdParam, deletionJson, type DeletionJson } from './json.ts';

// Deletions (docs/data.md#deletion): some of a project's events, or the project and all its
// events, asked for here and carried out by the worker (worker.ts, plan.ts) and announced on
// the deletions topic (publisher.ts). The repository and the topic's message are in
// libs/relational-store and libs/contract, since the consumers and the CLI read them too.

/** Who asked, as a deletion records it. */
export const requester = (request: FastifyRequest) => (request.principal!.kind === 'operator' ? 'operator' : `user:${request.principal!.userId}`);

const table = z.object({ rows_at_start: z.number().int(), remaining: z.number().int(), done: z.boolean() });
const deletion = z
  .object({
    id: z.string().uuid(),
    project_id: z.string().uuid(),
    project_name: z.string(),
    reason: z.enum(['project', 'events', 'retention']).openapi({ description: 'The project deleted; some of its events; or what a shorter retention left behind.' }),
    filter: z.record(z.unknown()).openapi({ description: 'kinds, service, from, to, as requested.' }),
    requested_by: z.string().openapi({ description: '"operator" or "user:<id>".' }),
    requested_at: z.string().datetime(),
    status: z.enum(['pending', 'running', 'done', 'failed']),
    phase: z.string().openapi({ description: 'pending, deleting, groups, verifying or done (docs/data.md#deletion).' }),
    percent: z.number().int().min(0).max(100),
    tables: z.record(table).openapi({ description: 'Per ClickHouse table: rows found when the deletion reached it, rows left.' }),
    error: z.string().nullable(),
    finished_at: z.string().datetime().nullable(),
  })
  .openapi('Deletion');
sameKeys<z.infer<typeof deletion>, DeletionJson>(true);
const oneDeletion = z.object({ deletion });
const deletionParams = z.object({ deletionId: deletionIdParam.shape.deletionId.openapi({ format: 'uuid' }) });

/** The operator sees every deletion; a user those of projects they may access, and the project deletions they asked for. */
const visible = async (request: FastifyRequest, del: Deletion) =>
  request.principal!.kind === 'operator' || del.requestedBy === requester(request) || (await request.principal!.canAccess(del.projectId));

export const DELETION_ROUTES: RouteGroup<RelationalStore> = {
  name: 'deletion',
  description: "Deleting a project's events, or the project, and following the deletions (docs/data.md#deletion); operator token.",
  security: OPERATOR,
  routes: [
    route({
      method: 'post',
      path: '/api/admin/projects/:id/deletions',
      summary: "Delete some of the project's events (a service, a time range, some kinds)",
      description: 'Runs in the background (lightweight deletes); follow it with GET /api/admin/deletions/{deletionId}.',
      params: projectParams,
      body: deleteEventsBody,
      // No body: every event of the project; a JSON null is not an object (400).
      bodyAs: 'bytes',
      answers: answers(oneDeletion, undefined, 202),
      async handle(d, _input, request, reply) {
        const id = await projectOf(request);
        const filter = deleteEventsBody.parse(request.body === undefined ? {} : request.body);
        const del = await deletionsRepo(d).deleteEvents(id, 'events', filter, requester(request));
        if (!del) throw notFound('Project');
        return reply.code(202).send({ deletion: deletionJson(del) });
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/projects/:id/deletions',
      summary: "The project's deletions, newest first",
      params: projectParams,
      answers: answers(z.object({ deletions: z.array(deletion) })),
      async handle(d, _input, request) {
        const id = await projectOf(request);
        return { deletions: (await deletionsRepo(d).list([id])).map(deletionJson) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/admin/projects/:id',
      summary: 'Delete the project and all its events',
      description:
        'The project, its key, origins and settings go at once (its key stops working); its events are deleted from every table in the background, and events of it still in Kafka are never written.',
      params: projectParams,
      answers: answers(oneDeletion, undefined, 202),
      async handle(d, _input, request, reply) {
        const id = await projectOf(request);
        const del = await deletionsRepo(d).deleteProject(id, requester(request));
        if (!del) throw notFound('Project');
        return reply.code(202).send({ deletion: deletionJson(del) });
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/deletions',
      summary: 'Deletions the caller may see, newest first',
      answers: answers(z.object({ deletions: z.array(deletion) })),
      async handle(d, _input, request) {
        const out = [];
        for (const del of await deletionsRepo(d).list(null)) if (await visible(request, del)) out.push(deletionJson(del));
        return { deletions: out };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/deletions/:deletionId',
      summary: 'One deletion and its progress',
      params: deletionParams,
      answers: answers(oneDeletion, (docs) => ({ 404: docs.errorResponse('Unknown deletion (or one the caller may not see).', 'Deletion not found') })),
      async handle(d, { params }, request) {
        const del = await deletionsRepo(d).get(params.deletionId);
        if (!del || !(await visible(request, del))) throw httpError(404, 'Deletion not found');
        return { deletion: deletionJson(del) };
      },
    }),
  ],
};
