import type { FastifyInstance } from 'fastify';
import { httpError, notFound } from '@devtrail/http';
import { MAX_UPLOAD_TOKENS, type UploadToken, type UploadTokensRepo } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { uploadTokenBody, uploadTokenParam } from './upload-token-schemas.ts';

// A project's upload tokens (docs/source-maps.md): created, listed and revoked by the operator
// and the project's members (never by a token itself). The raw token is in the creation's
// answer only. upload-token-docs.ts documents each path.

export const UPLOAD_TOKEN_PATHS = {
  list: '/api/projects/:id/upload-tokens',
  one: '/api/projects/:id/upload-tokens/:tokenId',
};

export const uploadTokenJson = (t: UploadToken) => ({ id: t.id, name: t.name, prefix: t.prefix, created_at: t.createdAt, last_used_at: t.lastUsedAt });
export const TOO_MANY_UPLOAD_TOKENS = `A project has at most ${MAX_UPLOAD_TOKENS} active upload tokens: revoke one first`;

export function registerUploadTokenRoutes(app: FastifyInstance, repo: UploadTokensRepo): void {
  app.get(UPLOAD_TOKEN_PATHS.list, async (request) => {
    const projectId = await projectOf(request);
    return { upload_tokens: (await repo.list(projectId)).map(uploadTokenJson) };
  });

  app.post(UPLOAD_TOKEN_PATHS.list, async (request, reply) => {
    const projectId = await projectOf(request);
    const { name } = uploadTokenBody.parse(request.body);
    const made = await repo.create(projectId, name);
    if (!made) throw httpError(409, TOO_MANY_UPLOAD_TOKENS);
    return reply.code(201).send({ upload_token: uploadTokenJson(made.token), token: made.secret });
  });

  app.delete(UPLOAD_TOKEN_PATHS.one, async (request, reply) => {
    const projectId = await projectOf(request);
    const { tokenId } = uploadTokenParam.parse(request.params);
    if (!(await repo.revoke(projectId, tokenId))) throw notFound('Upload token');
    return reply.code(204).send();
  });
}
