import { z } from 'zod';
import { dataPolicySchema, KIND_NAMES, llmPolicySchema } from '@devtrail/data-policy';
import { json, openApiPath, sameKeys, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { apiAnswers } from '../api/access-docs.ts';
import { DATA_PATHS } from './data-routes.ts';
import { deleteEventsBody, deletionIdParam, llmBody, quotasBody, retentionBody, samplingBody, scrubbingBody, type DeletionJson } from './data-schemas.ts';

// The OpenAPI documentation of data-routes.ts (docs/data.md says what each setting does).

export function documentDataApi(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const byKind = (t: z.ZodTypeAny) => z.object(Object.fromEntries(KIND_NAMES.map((n) => [n, t])));
  const policyAnswer = r.register(
    'DataPolicy',
    z.object({
      policy: dataPolicySchema.openapi({ description: 'What the project set; an absent part is its default.' }),
      updated_at: z.string().datetime().nullable(),
      effective: z.object({
        retention_days: byKind(z.object({ days: z.number().int(), source: z.enum(['project', 'default']) })).openapi({
          description: "Days each kind's events are kept: the project's setting, or RETENTION_DAYS.",
        }),
        scrubbing_defaults: z.boolean(),
        sampling: byKind(z.number()).openapi({ description: 'Share of events kept (1: all).' }),
        llm: llmPolicySchema.openapi({ description: 'LLM calls: whether their conversations are kept, and which OTLP attributes go into their metadata.' }),
      }),
    }),
  );
  const table = z.object({ rows_at_start: z.number().int(), remaining: z.number().int(), done: z.boolean() });
  const deletion = r.register(
    'Deletion',
    z.object({
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
    }),
  );
  sameKeys<z.infer<typeof deletion>, DeletionJson>(true);
  const oneDeletion = z.object({ deletion });

  const path = (
    method: 'get' | 'post' | 'put' | 'delete',
    route: string,
    summary: string,
    opts: { params?: z.AnyZodObject; body?: z.ZodTypeAny; ok: z.ZodTypeAny; status?: number; description?: string; extra?: Record<string, ResponseConfig> },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(route),
      tags: ['data'],
      summary,
      description: opts.description,
      security: [{ operatorToken: [] }],
      request: { ...(opts.params ? { params: opts.params } : {}), ...(opts.body ? { body: { required: true, ...json(opts.body) } } : {}) },
      responses: { [opts.status ?? 200]: { description: 'OK', ...json(opts.ok) }, ...errors(projectNotFound), ...opts.extra },
    });

  path('get', DATA_PATHS.policy, "The project's data policy and what is in effect", { params: idParam, ok: policyAnswer });
  path('put', DATA_PATHS.retention, 'Set the retention per kind (days; null: RETENTION_DAYS)', {
    params: idParam,
    body: retentionBody,
    ok: policyAnswer,
    description:
      'Applies to events received from now on. A shorter retention also hides older stored events from every read at once, and starts a deletion (reason "retention") of them.',
  });
  path('put', DATA_PATHS.scrubbing, 'Set the scrubbing rules', {
    params: idParam,
    body: scrubbingBody,
    ok: policyAnswer,
    description: "defaults: the built-in rules (secret-looking keys, card numbers); rules: the project's own, applied first. Patterns are RE2, at most 200 characters.",
  });
  path('put', DATA_PATHS.quotas, 'Set the quotas per kind and the spike guard', { params: idParam, body: quotasBody, ok: policyAnswer });
  path('put', DATA_PATHS.llm, "Set whether LLM calls' conversations are kept, and the OTLP attributes kept in their metadata", {
    params: idParam,
    body: llmBody,
    ok: policyAnswer,
  });
  path('put', DATA_PATHS.sampling, 'Set the sampling of logs and spans (share kept, by trace)', { params: idParam, body: samplingBody, ok: policyAnswer });
  path('post', DATA_PATHS.projectDeletions, "Delete some of the project's events (a service, a time range, some kinds)", {
    params: idParam,
    body: deleteEventsBody,
    ok: oneDeletion,
    status: 202,
    description: 'Runs in the background (lightweight deletes); follow it with GET /api/admin/deletions/{deletionId}.',
  });
  path('get', DATA_PATHS.projectDeletions, "The project's deletions, newest first", { params: idParam, ok: z.object({ deletions: z.array(deletion) }) });
  path('delete', DATA_PATHS.project, 'Delete the project and all its events', {
    params: idParam,
    ok: oneDeletion,
    status: 202,
    description:
      'The project, its key, origins and settings go at once (its key stops working); its events are deleted from every table in the background, and events of it still in Kafka are never written.',
  });
  path('get', DATA_PATHS.deletions, 'Deletions the caller may see, newest first', { ok: z.object({ deletions: z.array(deletion) }) });
  path('get', DATA_PATHS.deletion, 'One deletion and its progress', {
    params: z.object({ deletionId: deletionIdParam.shape.deletionId.openapi({ format: 'uuid' }) }),
    ok: oneDeletion,
    extra: { 404: docs.errorResponse('Unknown deletion (or one the caller may not see).', 'Deletion not found') },
  });
  return { name: 'data', description: 'Retention, scrubbing, quotas, sampling and deletion per project (docs/data.md); operator token.' };
}
