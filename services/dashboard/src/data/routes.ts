import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { dataPolicySchema, KIND_NAMES, llmPolicySchema, nameOfKind, resolvePolicy, type DataPolicy } from '@devtrail/data-policy';
import { isDeletionKind } from '@devtrail/contract';
import { EVENT_KINDS } from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import { dataPolicyRepo, deletionsRepo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { answers, OPERATOR, projectParams } from '../api/project-route.ts';
import { llmBody, quotasBody, retentionBody, samplingBody, scrubbingBody } from './data-schemas.ts';
import { requester } from '../deletion/routes.ts';

// /api/admin: a project's data policy (retention, scrubbing, quotas and spike guard, sampling;
// docs/data.md). Writes go through the admin API's authentication and per-project access like
// every admin route; a shorter retention starts a deletion (../deletion/).

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
export interface DataDeps {
  relational: RelationalStore;
  /** RETENTION_DAYS: the retention of kinds a project did not set. */
  defaultRetentionDays: number;
}

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

/** A policy route: PUT a part of it, answered with the whole. */
const policyPut = <B extends z.ZodTypeAny>(path: string, summary: string, body: B, edit: (p: DataPolicy, b: z.output<B>) => DataPolicy, description?: string) =>
  route({
    method: 'put',
    path,
    summary,
    description,
    params: projectParams,
    body,
    answers: answers(policyAnswer),
    handle: (d: DataDeps, input, request) => change(d, request, (p) => edit(p, input.body as z.output<B>)),
  });

export const DATA_ROUTES: RouteGroup<DataDeps> = {
  name: 'data',
  description: 'Retention, scrubbing, quotas and sampling per project (docs/data.md); operator token.',
  security: OPERATOR,
  routes: [
    route({
      method: 'get',
      path: '/api/admin/projects/:id/data-policy',
      summary: "The project's data policy and what is in effect",
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
  ],
};
