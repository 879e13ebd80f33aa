import type { FastifyInstance } from 'fastify';
import { httpError, notFound } from '@devtrail/http';
import { MAX_SAVED_QUERIES, type SavedQueriesRepo, type SavedQuery } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { savedQueryBody, savedQueryParam } from './explore-schemas.ts';

// Saved log searches of a project (the logs explorer's "Saved"), shared by its members.
// explore-docs.ts documents each path.

export const SAVED_QUERY_PATHS = {
  list: '/api/projects/:id/saved-queries',
  one: '/api/projects/:id/saved-queries/:queryId',
};

export const savedQueryJson = (s: SavedQuery) => ({ id: s.id, name: s.name, query: s.query, range: s.range, created_at: s.createdAt });
export const TOO_MANY_SAVED = `A project keeps at most ${MAX_SAVED_QUERIES} saved searches: delete one first`;

export function registerSavedQueryRoutes(app: FastifyInstance, repo: SavedQueriesRepo): void {
  app.get(SAVED_QUERY_PATHS.list, async (request) => {
    const projectId = await projectOf(request);
    return { saved_queries: (await repo.list(projectId)).map(savedQueryJson) };
  });

  // Saving under a taken name replaces that search.
  app.post(SAVED_QUERY_PATHS.list, async (request) => {
    const projectId = await projectOf(request);
    const body = savedQueryBody.parse(request.body);
    const saved = await repo.save(projectId, { name: body.name, query: body.query, range: body.range, userId: request.principal!.userId ?? null });
    if (!saved) throw httpError(409, TOO_MANY_SAVED);
    return { saved_query: savedQueryJson(saved) };
  });

  app.delete(SAVED_QUERY_PATHS.one, async (request, reply) => {
    const projectId = await projectOf(request);
    const { queryId } = savedQueryParam.parse(request.params);
    if (!(await repo.remove(projectId, queryId))) throw notFound('Saved search');
    return reply.code(204).send();
  });
}
