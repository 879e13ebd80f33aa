import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dataPolicySchema, nameOfKind, resolvePolicy, type DataPolicy } from '@devtrail/data-policy';
import { isDeletionKind } from '@devtrail/contract';
import { EVENT_KINDS } from '@devtrail/kinds';
import { httpError, notFound } from '@devtrail/http';
import { dataPolicyRepo, deletionsRepo, type Deletion, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { deleteEventsBody, deletionIdParam, deletionJson, llmBody, quotasBody, retentionBody, samplingBody, scrubbingBody } from './data-schemas.ts';

// /api/admin: a project's data policy (retention, scrubbing, quotas and spike guard,
// sampling), deletions of its events, and its deletion (docs/data.md). Writes go through the
// admin API's authentication and per-project access like every admin route; data-docs.ts
// documents each path.

export const DATA_PATHS = {
  policy: '/api/admin/projects/:id/data-policy',
  retention: '/api/admin/projects/:id/retention',
  scrubbing: '/api/admin/projects/:id/scrubbing',
  quotas: '/api/admin/projects/:id/quotas',
  sampling: '/api/admin/projects/:id/sampling',
  llm: '/api/admin/projects/:id/llm',
  projectDeletions: '/api/admin/projects/:id/deletions',
  project: '/api/admin/projects/:id',
  deletions: '/api/admin/deletions',
  deletion: '/api/admin/deletions/:deletionId',
};

/** Who asked, as a deletion records it. */
const requester = (request: FastifyRequest) => (request.principal!.kind === 'operator' ? 'operator' : `user:${request.principal!.userId}`);

export function registerDataRoutes(app: FastifyInstance, relational: RelationalStore, defaultRetentionDays: number): void {
  const policies = dataPolicyRepo(relational);
  const deletions = deletionsRepo(relational);

  const stored = async (id: string): Promise<DataPolicy> => {
    const p = await policies.get(id);
    if (!p) throw notFound('Project');
    const parsed = dataPolicySchema.safeParse(p.policy);
    return parsed.success ? parsed.data : {};
  };
  const answer = async (id: string) => {
    const p = await policies.get(id);
    if (!p) throw notFound('Project');
    const policy = await stored(id);
    const r = resolvePolicy(policy, defaultRetentionDays);
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
  };
  const change = async (id: string, edit: (p: DataPolicy) => DataPolicy) => {
    const next = edit(await stored(id));
    if (!(await policies.set(id, dataPolicySchema.parse(next)))) throw notFound('Project');
  };

  app.get(DATA_PATHS.policy, async (request) => answer(await projectOf(request)));

  app.put(DATA_PATHS.retention, async (request) => {
    const id = await projectOf(request);
    const { retention_days } = retentionBody.parse(request.body);
    const before = resolvePolicy(await stored(id), defaultRetentionDays).retentionDays;
    await change(id, (p) => ({ ...p, retention_days }));
    const after = resolvePolicy(await stored(id), defaultRetentionDays).retentionDays;
    // A shorter retention applies to what is stored at once: reads hide the older rows, and
    // a deletion removes them (rows keep the retention they were written with otherwise).
    const now = Date.now();
    for (const k of EVENT_KINDS) {
      // A kind a deletion message cannot name (DELETION_KINDS) expires with its new retention on reads and by TTL.
      if (after[k] < before[k] && isDeletionKind(k))
        await deletions.deleteEvents(id, 'retention', { kinds: [nameOfKind(k)], to: new Date(now - after[k] * 86_400_000).toISOString() }, requester(request));
    }
    return answer(id);
  });

  app.put(DATA_PATHS.scrubbing, async (request) => {
    const id = await projectOf(request);
    const scrubbing = scrubbingBody.parse(request.body);
    await change(id, (p) => ({ ...p, scrubbing }));
    return answer(id);
  });

  app.put(DATA_PATHS.quotas, async (request) => {
    const id = await projectOf(request);
    const body = quotasBody.parse(request.body);
    await change(id, (p) => ({ ...p, ...(body.quotas ? { quotas: body.quotas } : {}), ...(body.spike_guard ? { spike_guard: body.spike_guard } : {}) }));
    return answer(id);
  });

  app.put(DATA_PATHS.sampling, async (request) => {
    const id = await projectOf(request);
    const { sampling } = samplingBody.parse(request.body);
    await change(id, (p) => ({ ...p, sampling }));
    return answer(id);
  });

  app.put(DATA_PATHS.llm, async (request) => {
    const id = await projectOf(request);
    const { llm } = llmBody.parse(request.body);
    await change(id, (p) => ({ ...p, llm }));
    return answer(id);
  });

  app.post(DATA_PATHS.projectDeletions, async (request, reply) => {
    const id = await projectOf(request);
    // No body: every event of the project; a JSON null is not an object (400).
    const filter = deleteEventsBody.parse(request.body === undefined ? {} : request.body);
    const d = await deletions.deleteEvents(id, 'events', filter, requester(request));
    if (!d) throw notFound('Project');
    return reply.code(202).send({ deletion: deletionJson(d) });
  });

  app.get(DATA_PATHS.projectDeletions, async (request) => {
    const id = await projectOf(request);
    return { deletions: (await deletions.list([id])).map(deletionJson) };
  });

  app.delete(DATA_PATHS.project, async (request, reply) => {
    const id = await projectOf(request);
    const d = await deletions.deleteProject(id, requester(request));
    if (!d) throw notFound('Project');
    return reply.code(202).send({ deletion: deletionJson(d) });
  });

  /** The operator sees every deletion; a user those of projects they may access, and the project deletions they asked for. */
  const visible = async (request: FastifyRequest, d: Deletion) =>
    request.principal!.kind === 'operator' || d.requestedBy === requester(request) || (await request.principal!.canAccess(d.projectId));

  app.get(DATA_PATHS.deletions, async (request) => {
    const out = [];
    for (const d of await deletions.list(null)) if (await visible(request, d)) out.push(deletionJson(d));
    return { deletions: out };
  });

  app.get(DATA_PATHS.deletion, async (request) => {
    const { deletionId } = deletionIdParam.parse(request.params);
    const d = await deletions.get(deletionId);
    if (!d || !(await visible(request, d))) throw httpError(404, 'Deletion not found');
    return { deletion: deletionJson(d) };
  });
}
