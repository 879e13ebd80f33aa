import { z } from 'zod';
import { UPLOAD_TOKEN_PATTERN } from '@devtrail/access';
import { ERRORS, httpError, notFound } from '@devtrail/http';
import { sameKeys, type ApiDocs } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { MAX_UPLOAD_TOKENS, type UploadToken, type UploadTokensRepo } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { answers, OPERATOR, projectAnd, projectParams } from '../api/project-route.ts';
import { uploadTokenBody, uploadTokenParam } from './schemas.ts';

// A project's upload tokens (docs/source-maps.md): created, listed and revoked by the operator
// and the project's members (never by a token itself). The raw token is in the creation's
// answer only.

export const uploadTokenJson = (t: UploadToken) => ({ id: t.id, name: t.name, prefix: t.prefix, created_at: t.createdAt, last_used_at: t.lastUsedAt });
export const TOO_MANY_UPLOAD_TOKENS = `A project has at most ${MAX_UPLOAD_TOKENS} active upload tokens: revoke one first`;

const token = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'First characters of the token ("dtu_" + 4 hex), for display.' }),
    created_at: z.string().datetime(),
    last_used_at: z.string().datetime().nullable(),
  })
  .openapi('UploadToken');
sameKeys<z.infer<typeof token>, ReturnType<typeof uploadTokenJson>>(true);
const readOnly = (docs: ApiDocs) => ({ 403: docs.errorResponse('A read-only dashboard session (viewer).', ERRORS.readOnly) });

export const UPLOAD_TOKEN_ROUTES: RouteGroup<UploadTokensRepo> = {
  name: 'upload tokens',
  description: "A project's upload tokens: the secret `devtrail sourcemaps upload` and CI upload source maps with (docs/source-maps.md); operator token or session.",
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/upload-tokens',
      summary: "The project's active upload tokens, newest first (never the secrets)",
      answers: answers(z.object({ upload_tokens: z.array(token) })),
      async handle(repo, { projectId }) {
        return { upload_tokens: (await repo.list(projectId)).map(uploadTokenJson) };
      },
    }),
    route({
      method: 'post',
      path: '/api/projects/:id/upload-tokens',
      summary: 'Create an upload token (the secret is in this answer only)',
      body: uploadTokenBody,
      notes: { name: '1 to 100 characters: what uses it (a CI pipeline, say).' },
      answers: answers(
        z.object({
          upload_token: token,
          token: z.string().regex(UPLOAD_TOKEN_PATTERN).openapi({ description: 'The raw token ("dtu_" + 40 hex), shown only in this answer.' }),
        }),
        (docs) => ({ ...readOnly(docs), 409: docs.errorResponse(`The project has ${MAX_UPLOAD_TOKENS} active upload tokens already.`, TOO_MANY_UPLOAD_TOKENS) }),
        201,
      ),
      async handle(repo, { projectId, body }, _request, reply) {
        const made = await repo.create(projectId, body.name);
        if (!made) throw httpError(409, TOO_MANY_UPLOAD_TOKENS);
        return reply.code(201).send({ upload_token: uploadTokenJson(made.token), token: made.secret });
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:id/upload-tokens/:tokenId',
      summary: 'Revoke an upload token (it stops working at once)',
      params: projectAnd(uploadTokenParam),
      answers: answers(
        undefined,
        (docs) => ({
          ...readOnly(docs),
          404: docs.errorResponse('Unknown project or upload token.', { project: notFound('Project').message, token: notFound('Upload token').message }),
        }),
        204,
      ),
      async handle(repo, { projectId, params }, _request, reply) {
        if (!(await repo.revoke(projectId, params.tokenId))) throw notFound('Upload token');
        return reply.code(204).send();
      },
    }),
  ],
};
