import { z } from 'zod';
import { httpError, notFound } from '@devtrail/http';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { MAX_SAVED_QUERIES, type SavedQueriesRepo, type SavedQuery } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { savedQueryBody, savedQueryParam } from './explore-schemas.ts';
import { answers, OPERATOR, projectAnd, projectParams } from './project-route.ts';
import { SEARCH_NOTE } from './read-notes.ts';

// Saved log searches of a project (the logs explorer's "Saved"), shared by its members.

export const savedQueryJson = (s: SavedQuery) => ({ id: s.id, name: s.name, query: s.query, range: s.range, created_at: s.createdAt });
export const TOO_MANY_SAVED = `A project keeps at most ${MAX_SAVED_QUERIES} saved searches: delete one first`;

const savedQuery = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    query: z.string(),
    range: z.string().nullable().openapi({ description: 'A relative range to open it with (15m, 1h, 7d), or null.' }),
    created_at: z.string().datetime(),
  })
  .openapi('SavedQuery');
sameKeys<z.infer<typeof savedQuery>, ReturnType<typeof savedQueryJson>>(true);

export const SAVED_QUERY_ROUTES: RouteGroup<SavedQueriesRepo> = {
  name: 'saved searches',
  description: "The logs explorer's saved searches, shared by a project's members; operator token or session.",
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/saved-queries',
      summary: "The project's saved log searches, by name",
      answers: answers(z.object({ saved_queries: z.array(savedQuery) })),
      async handle(repo, { projectId }) {
        return { saved_queries: (await repo.list(projectId)).map(savedQueryJson) };
      },
    }),
    // Saving under a taken name replaces that search.
    route({
      method: 'post',
      path: '/api/projects/:id/saved-queries',
      summary: 'Save a log search (a taken name is replaced)',
      body: savedQueryBody,
      notes: { query: SEARCH_NOTE, name: '1 to 100 characters, unique in the project.' },
      answers: answers(z.object({ saved_query: savedQuery }), (docs) => ({
        409: docs.errorResponse(`The project has ${MAX_SAVED_QUERIES} saved searches already.`, TOO_MANY_SAVED),
      })),
      async handle(repo, { projectId, body }, request) {
        const saved = await repo.save(projectId, { name: body.name, query: body.query, range: body.range, userId: request.principal!.userId ?? null });
        if (!saved) throw httpError(409, TOO_MANY_SAVED);
        return { saved_query: savedQueryJson(saved) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:id/saved-queries/:queryId',
      summary: 'Delete a saved search',
      params: projectAnd(savedQueryParam),
      answers: answers(
        undefined,
        (docs) => ({ 404: docs.errorResponse('Unknown project or saved search.', { project: notFound('Project').message, search: notFound('Saved search').message }) }),
        204,
      ),
      async handle(repo, { projectId, params }, _request, reply) {
        if (!(await repo.remove(projectId, params.queryId))) throw notFound('Saved search');
        return reply.code(204).send();
      },
    }),
  ],
};
