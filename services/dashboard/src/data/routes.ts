import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { dataPolicySchema, KIND_NAMES, llmPolicySchema, nameOfKind, resolvePolicy, type DataPolicy } from '@devtrail/data-policy';
import { isDeletionKind } from '@devtrail/contract';
import { EVENT_KINDS } from '@devtrail/kinds';
import { httpError, notFound } from '@devtrail/http';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { dataPolicyRepo, deletionsRepo, type Deletion, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { answers, OPERATOR, projectParams } from '../api/project-route.ts';
import { deleteEventsBody, deletionIdParam, deletionJson, llmBody, quotasBody, retentionBody, samplingBody, scrubbingBody, type DeletionJson } from './data-schemas.ts';

// /api/admin: a project's data policy (retention, scrubbing, quotas and spike guard,
// sampling), deletions of its events, and its deletion (docs/data.md). Writes go through the
// admin API's authentication and per-project access like every admin route.

const byKind = (t: z.ZodTypeAny) => z.object(Object.fromEntries(KIND_NAMES.map((n) => [n, t])));
const policyAnswer = z
  .object({
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
  })
  .openapi('DataPolicy');
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

export interface DataDeps {
  relational: RelationalStore;
  /** RETENTION_DAYS: the retention of kinds a project did not set. */
  defaultRetentionDays: number;
}

/** Who asked, as a deletion records it. */
const requester = (request: FastifyRequest) => (request.principal!.kind === 'operator' ? 'operator' : `user:${request.principal!.userId}`);

async function stored(d: DataDeps, id: string): Promise<DataPolicy> {
  const p = await dataPolicyRepo(d.relational).get(id);
  if (!p) throw notFound('Project');
  const parsed = dataPolicySchema.safeParse(p.policy);
  return parsed.success ? parsed.data : {};
}

/** The project's policy as set, and what is in effect. */
async function policyOf(d: DataDeps, id: string) {
  const p = await dataPolicyRepo(d.relational).get(id);
  if (!p) throw notFound('Project');
  const policy = await stored(d, id);
  const r = resolvePolicy(policy, d.defaultRetentionDays);
  return {
    policy,
    updated_at: p.updatedAt,
    effective: {
      retention_days: Object.fromEntries(EVENT_KINDS.map((k) => [nameOfKind(k), { days: r.retentionDays[k], source: r.retentionSet[k] ? 'project' : 'default' }])),
      scrubbing_defaults: r.scrubbing.defaults,
      sampling: Object.fromEntries(EVENT_KINDS.map((k) => [nameOfKind(k), r.sampling[k]])),
      llm: r.llm,
    },
  };
}

/** Edits the project's policy (checked whole) and answers it. */
async function change(d: DataDeps, request: FastifyRequest, edit: (p: DataPolicy) => DataPolicy) {
  const id = await projectOf(request);
  const next = edit(await stored(d, id));
  if (!(await dataPolicyRepo(d.relational).set(id, dataPolicySchema.parse(next)))) throw notFound('Project');
  return policyOf(d, id);
}

/** The operator sees every deletion; a user those of projects they may access, and the project deletions they asked for. */
const visible = async (request: FastifyRequest, del: Deletion) =>
  request.principal!.kind === 'operator' || del.requestedBy === requester(request) || (await request.principal!.canAccess(del.projectId));

/** A policy route: PUT a part of it, answered with the whole. */
const policyPut = <B extends z.ZodTypeAny>(path: string, summary: string, body: B, edit: (p: DataPolicy, b: z.output<B>) => DataPolicy, description?: string) =>
  route({
    method: 'put',
    path,
    summary,
    description,
    security: OPERATOR,
    params: projectParams,
    body,
    answers: answers(policyAnswer),
    handle: (d: DataDeps, input, request) => change(d, request, (p) => edit(p, input.body as z.output<B>)),
  });

export const DATA_ROUTES: RouteGroup<DataDeps> = {
  name: 'data',
  description: 'Retention, scrubbing, quotas, sampling and deletion per project (docs/data.md); operator token.',
  routes: [
    route({
      method: 'get',
      path: '/api/admin/projects/:id/data-policy',
      summary: "The project's data policy and what is in effect",
      security: OPERATOR,
      params: projectParams,
      answers: answers(policyAnswer),
      handle: async (d, _input, request) => policyOf(d, await projectOf(request)),
    }),
    route({
      method: 'put',
      path: '/api/admin/projects/:id/retention',
      summary: 'Set the retention per kind (days; null: RETENTION_DAYS)',
      description:
        'Applies to events received from now on. A shorter retention also hides older stored events from every read at once, and starts a deletion (reason "retention") of them.',
      security: OPERATOR,
      params: projectParams,
      body: retentionBody,
      answers: answers(policyAnswer),
      async handle(d, { body }, request) {
        const id = await projectOf(request);
        const before = resolvePolicy(await stored(d, id), d.defaultRetentionDays).retentionDays;
        const answer = await change(d, request, (p) => ({ ...p, retention_days: body.retention_days }));
        const after = resolvePolicy(await stored(d, id), d.defaultRetentionDays).retentionDays;
        // A shorter retention applies to what is stored at once: reads hide the older rows, and
        // a deletion removes them (rows keep the retention they were written with otherwise).
        const now = Date.now();
        for (const k of EVENT_KINDS) {
          // A kind a deletion message cannot name (DELETION_KINDS) expires with its new retention on reads and by TTL.
          if (after[k] < before[k] && isDeletionKind(k))
            await deletionsRepo(d.relational).deleteEvents(
              id,
              'retention',
              { kinds: [nameOfKind(k)], to: new Date(now - after[k] * 86_400_000).toISOString() },
              requester(request),
            );
        }
        return answer;
      },
    }),
    policyPut(
      '/api/admin/projects/:id/scrubbing',
      'Set the scrubbing rules',
      scrubbingBody,
      (p, scrubbing) => ({ ...p, scrubbing }),
      "defaults: the built-in rules (secret-looking keys, card numbers); rules: the project's own, applied first. Patterns are RE2, at most 200 characters.",
    ),
    policyPut('/api/admin/projects/:id/quotas', 'Set the quotas per kind and the spike guard', quotasBody, (p, b) => ({
      ...p,
      ...(b.quotas ? { quotas: b.quotas } : {}),
      ...(b.spike_guard ? { spike_guard: b.spike_guard } : {}),
    })),
    policyPut('/api/admin/projects/:id/llm', "Set whether LLM calls' conversations are kept, and the OTLP attributes kept in their metadata", llmBody, (p, b) => ({
      ...p,
      llm: b.llm,
    })),
    policyPut('/api/admin/projects/:id/sampling', 'Set the sampling of logs and spans (share kept, by trace)', samplingBody, (p, b) => ({ ...p, sampling: b.sampling })),
    route({
      method: 'post',
      path: '/api/admin/projects/:id/deletions',
      summary: "Delete some of the project's events (a service, a time range, some kinds)",
      description: 'Runs in the background (lightweight deletes); follow it with GET /api/admin/deletions/{deletionId}.',
      security: OPERATOR,
      params: projectParams,
      body: deleteEventsBody,
      // No body: every event of the project; a JSON null is not an object (400).
      bodyAs: 'bytes',
      answers: answers(oneDeletion, undefined, 202),
      async handle(d, _input, request, reply) {
        const id = await projectOf(request);
        const filter = deleteEventsBody.parse(request.body === undefined ? {} : request.body);
        const del = await deletionsRepo(d.relational).deleteEvents(id, 'events', filter, requester(request));
        if (!del) throw notFound('Project');
        return reply.code(202).send({ deletion: deletionJson(del) });
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/projects/:id/deletions',
      summary: "The project's deletions, newest first",
      security: OPERATOR,
      params: projectParams,
      answers: answers(z.object({ deletions: z.array(deletion) })),
      async handle(d, _input, request) {
        const id = await projectOf(request);
        return { deletions: (await deletionsRepo(d.relational).list([id])).map(deletionJson) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/admin/projects/:id',
      summary: 'Delete the project and all its events',
      description:
        'The project, its key, origins and settings go at once (its key stops working); its events are deleted from every table in the background, and events of it still in Kafka are never written.',
      security: OPERATOR,
      params: projectParams,
      answers: answers(oneDeletion, undefined, 202),
      async handle(d, _input, request, reply) {
        const id = await projectOf(request);
        const del = await deletionsRepo(d.relational).deleteProject(id, requester(request));
        if (!del) throw notFound('Project');
        return reply.code(202).send({ deletion: deletionJson(del) });
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/deletions',
      summary: 'Deletions the caller may see, newest first',
      security: OPERATOR,
      answers: answers(z.object({ deletions: z.array(deletion) })),
      async handle(d, _input, request) {
        const out = [];
        for (const del of await deletionsRepo(d.relational).list(null)) if (await visible(request, del)) out.push(deletionJson(del));
        return { deletions: out };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/deletions/:deletionId',
      summary: 'One deletion and its progress',
      security: OPERATOR,
      params: deletionParams,
      answers: answers(oneDeletion, (docs) => ({ 404: docs.errorResponse('Unknown deletion (or one the caller may not see).', 'Deletion not found') })),
      async handle(d, { params }, request) {
        const del = await deletionsRepo(d.relational).get(params.deletionId);
        if (!del || !(await visible(request, del))) throw httpError(404, 'Deletion not found');
        return { deletion: deletionJson(del) };
      },
    }),
  ],
};
