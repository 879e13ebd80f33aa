import { z, type AnyZodObject } from 'zod';
import { UPLOAD_TOKEN_PATTERN } from '@devtrail/access';
import { ERRORS, notFound } from '@devtrail/http';
import { describeFields, json, openApiPath, sameKeys, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { MAX_UPLOAD_TOKENS } from '@devtrail/relational-store';
import { apiAnswers } from './access-docs.ts';
import { TOO_MANY_UPLOAD_TOKENS, UPLOAD_TOKEN_PATHS, type uploadTokenJson } from './upload-token-routes.ts';
import { uploadTokenBody, uploadTokenParam } from './upload-token-schemas.ts';

// The OpenAPI documentation of upload-token-routes.ts.

export function documentUploadTokens(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const token = r.register(
    'UploadToken',
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      prefix: z.string().openapi({ description: 'First characters of the token ("dtu_" + 4 hex), for display.' }),
      created_at: z.string().datetime(),
      last_used_at: z.string().datetime().nullable(),
    }),
  );
  sameKeys<z.infer<typeof token>, ReturnType<typeof uploadTokenJson>>(true);
  const readOnly = docs.errorResponse('A read-only dashboard session (viewer).', ERRORS.readOnly);
  const path = (
    method: 'get' | 'post' | 'delete',
    route: string,
    summary: string,
    o: { params?: AnyZodObject; body?: AnyZodObject; ok?: z.ZodTypeAny; status?: number; extra?: Record<string, ResponseConfig> },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(route),
      tags: ['upload tokens'],
      summary,
      security: [{ operatorToken: [] }],
      request: {
        params: o.params ? idParam.merge(o.params) : idParam,
        ...(o.body ? { body: { required: true, ...json(o.body) } } : {}),
      },
      responses: {
        [o.status ?? 200]: o.ok ? { description: 'OK', ...json(o.ok) } : { description: 'Done' },
        ...errors(projectNotFound),
        ...(method === 'get' ? {} : { 403: readOnly }),
        ...o.extra,
      },
    });
  path('get', UPLOAD_TOKEN_PATHS.list, "The project's active upload tokens, newest first (never the secrets)", {
    ok: z.object({ upload_tokens: z.array(token) }),
  });
  path('post', UPLOAD_TOKEN_PATHS.list, 'Create an upload token (the secret is in this answer only)', {
    body: describeFields(uploadTokenBody, { name: '1 to 100 characters: what uses it (a CI pipeline, say).' }),
    ok: z.object({
      upload_token: token,
      token: z.string().regex(UPLOAD_TOKEN_PATTERN).openapi({ description: 'The raw token ("dtu_" + 40 hex), shown only in this answer.' }),
    }),
    status: 201,
    extra: { 409: docs.errorResponse(`The project has ${MAX_UPLOAD_TOKENS} active upload tokens already.`, TOO_MANY_UPLOAD_TOKENS) },
  });
  path('delete', UPLOAD_TOKEN_PATHS.one, 'Revoke an upload token (it stops working at once)', {
    params: uploadTokenParam,
    status: 204,
    extra: { 404: docs.errorResponse('Unknown project or upload token.', { project: projectNotFound, token: notFound('Upload token').message }) },
  });
  return {
    name: 'upload tokens',
    description: "A project's upload tokens: the secret `devtrail sourcemaps upload` and CI upload source maps with (docs/source-maps.md); operator token or session.",
  };
}
