import { z } from 'zod';
import { ERRORS, notFound, UNAVAILABLE } from '@devtrail/http';
import { READ_LIMIT_DEFAULTS, READ_TIMEOUT } from '@devtrail/column-store';
import { projectIdParam } from './api-schemas.ts';
import { json, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';

// What every /api route answers besides its 200 (project-route.ts, each resource's routes):
// the schemas' 400, access.ts's 401 and 404, the stores' 503; and the :id parameter.

export function apiAnswers({ validationError, errorResponse, retryAfter }: ApiDocs) {
  const idParam = z.object({ id: projectIdParam.shape.id.openapi({ format: 'uuid', description: 'Project id.' }) });
  /** notFound: the 404 message, for routes with a project id. */
  const errors = (notFoundMessage: string | null): Record<string, ResponseConfig> => ({
    400: { description: 'Invalid parameters or body (zod issues).', ...json(validationError) },
    401: errorResponse('Operator token missing or wrong.', ERRORS.noPrincipal),
    ...(notFoundMessage ? { 404: errorResponse('Unknown project (or one the caller may not see).', notFoundMessage) } : {}),
    503: errorResponse(
      'A store (PostgreSQL or ClickHouse) is unreachable, or a read ran past its time limit (READ_MAX_EXECUTION_MS).',
      { postgres: UNAVAILABLE['relational-store'], clickhouse: UNAVAILABLE['column-store'], read_time: READ_TIMEOUT(READ_LIMIT_DEFAULTS.oneConnectionMs) },
      { 'Retry-After': retryAfter },
    ),
  });
  return { idParam, errors, projectNotFound: notFound('Project').message };
}
