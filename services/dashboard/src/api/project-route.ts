import { z, type ZodTypeAny } from 'zod';
import { READ_LIMIT_DEFAULTS, READ_TIMEOUT } from '@devtrail/column-store';
import { ERRORS, notFound, UNAVAILABLE } from '@devtrail/http';
import { json, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import '@devtrail/http/route';
import { projectIdParam } from './api-schemas.ts';

// What the /api routes share (each resource's file declares its routes with them, libs/http
// route.ts): who may call them, the :id, and the answers besides the 200: the schemas' 400,
// access.ts's 401 and 404, the stores' 503.

/** The security requirement the document shows for the admin and read APIs (access.ts checks it). */
export const OPERATOR: Record<string, string[]>[] = [{ operatorToken: [] }];

/** The :id of a project route, as validated and documented. */
export const projectParams = z.object({ id: projectIdParam.shape.id.openapi({ format: 'uuid', description: 'Project id.' }) });
/** The project's :id and a route's own path parameters. */
export const projectAnd = <T extends z.ZodRawShape>(more: z.ZodObject<T>) => projectParams.merge(more);

export const RANGE_NOTE = 'from/to: ISO 8601 with offset, or epoch milliseconds. Default range: the 24 hours before `to` (default now + 60 s).';
export const PAGED_RANGE_NOTE = `${RANGE_NOTE} limit: 1..1000, default 100.`;

export function apiAnswers({ validationError, errorResponse, retryAfter }: ApiDocs) {
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
  return { errors, projectNotFound: notFound('Project').message };
}

/** A project route's answers: `status` with `ok` (none: "Done"), the shared 400/401/404/503, then `more`. */
export const answers =
  (ok?: ZodTypeAny, more?: (docs: ApiDocs) => Record<string, ResponseConfig>, status = 200) =>
  (docs: ApiDocs): Record<string, ResponseConfig> => {
    const { errors, projectNotFound } = apiAnswers(docs);
    return { [status]: ok ? { description: 'OK', ...json(ok) } : { description: 'Done' }, ...errors(projectNotFound), ...more?.(docs) };
  };
