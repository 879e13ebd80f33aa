import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { deliverOnce, enqueueMessage, leaseMsFor, ruleInput, RULE_TYPES, testMessage, type DeliveryOptions } from '@devtrail/alerting';
import { badRequest, notFound } from '@devtrail/http';
import type { ApiDocs } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { alertsRepo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { notificationJson, ruleJson } from './alert-json.ts';
import { queryInt } from './api-schemas.ts';
import { answers, OPERATOR, projectAnd, projectParams } from './project-route.ts';

// Alert rules per project, their notifications and every delivery attempt, and "test rule"
// (docs/alerts.md). The rules are evaluated by the alerts consumer; a test is delivered
// from here at once, through the same outbox and sender, and answered with its attempt.

const ruleIdParam = z.object({ ruleId: z.string().uuid() });
const notificationsQuery = z.object({ rule_id: z.string().uuid().optional(), limit: queryInt(1, 200).default(50) });

const destination = z.object({
  id: z.string().uuid(),
  type: z.enum(['webhook', 'slack']),
  url: z.string().openapi({ description: 'Where it points, shortened: the URL is a credential.' }),
  has_signing_secret: z.boolean(),
  signing_secret: z.string().optional().openapi({ description: 'Only in the answer that created the destination.' }),
});
const rule = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    type: z.enum(RULE_TYPES),
    params: z.record(z.unknown()),
    enabled: z.boolean(),
    destinations: z.array(destination),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('AlertRule');
const notification = z
  .object({
    id: z.string().uuid().openapi({ description: 'The delivery id (X-Devtrail-Delivery).' }),
    rule_id: z.string().uuid(),
    rule_name: z.string(),
    destination_id: z.string().uuid(),
    destination_type: z.enum(['webhook', 'slack']),
    dedup_key: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    title: z.string(),
    test: z.boolean(),
    created_at: z.string().datetime(),
    delivered_at: z.string().datetime().nullable(),
    next_attempt_at: z.string().datetime().nullable(),
    last_error: z.string().nullable(),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        started_at: z.string().datetime(),
        latency_ms: z.number().int(),
        status_code: z.number().int().nullable(),
        outcome: z.string().openapi({ description: 'ok, http_error, timeout, network, refused, invalid_url' }),
        error: z.string().nullable(),
      }),
    ),
  })
  .openapi('AlertNotification');

export interface AlertDeps {
  relational: RelationalStore;
  delivery: DeliveryOptions;
  publicUrl: string | undefined;
}

const repoOf = (d: AlertDeps) => alertsRepo(d.relational);
const ruleOf = async (d: AlertDeps, projectId: string, ruleId: string) => {
  const r = await repoOf(d).rule(projectId, ruleId);
  if (!r) throw notFound('Alert rule');
  return r;
};
const newIds = (before: Set<string>, after: { destinations: Array<{ id: string }> }) => new Set(after.destinations.map((x) => x.id).filter((id) => !before.has(id)));
const ruleNotFound = () => (docs: ApiDocs) => ({ 404: docs.errorResponse('Unknown project, or nothing found.', notFound('Alert rule').message) });

export const ALERT_ROUTES: RouteGroup<AlertDeps> = {
  name: 'alerts',
  description: 'Alert rules, their notifications and deliveries, and test deliveries (docs/alerts.md); operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/alert-rules',
      summary: 'Alert rules',
      answers: answers(z.object({ rules: z.array(rule) })),
      async handle(d, { projectId }) {
        return { rules: (await repoOf(d).rules(projectId)).map((r) => ruleJson(r)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/projects/:id/alert-rules',
      summary: 'Create an alert rule (webhook signing secrets appear in this answer only)',
      body: ruleInput,
      answers: answers(z.object({ rule }), undefined, 201),
      async handle(d, { projectId, body }, _request, reply) {
        if (body.destinations.some((x) => 'id' in x)) throw badRequest('A new rule has no destinations to keep yet', '{ type, url }', '{ id }', ['destinations']);
        const made = await repoOf(d).createRule(projectId, body);
        return reply.code(201).send({ rule: ruleJson(made, newIds(new Set(), made)) });
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/alert-rules/:ruleId',
      summary: 'Show an alert rule',
      params: projectAnd(ruleIdParam),
      answers: answers(z.object({ rule }), ruleNotFound()),
      async handle(d, { projectId, params }) {
        return { rule: ruleJson(await ruleOf(d, projectId, params.ruleId)) };
      },
    }),
    route({
      method: 'put',
      path: '/api/projects/:id/alert-rules/:ruleId',
      summary: 'Replace an alert rule ({ id } keeps a destination)',
      params: projectAnd(ruleIdParam),
      body: ruleInput,
      answers: answers(z.object({ rule }), ruleNotFound()),
      async handle(d, { projectId, params, body }) {
        const before = await ruleOf(d, projectId, params.ruleId);
        const unknown = body.destinations.find((x) => 'id' in x && !before.destinations.some((b) => b.id === x.id));
        if (unknown) throw badRequest("Not one of this rule's destinations", 'a destination id of this rule', 'another id', ['destinations']);
        const updated = await repoOf(d).updateRule(projectId, before.id, body);
        if (!updated) throw notFound('Alert rule');
        return { rule: ruleJson(updated, newIds(new Set(before.destinations.map((x) => x.id)), updated)) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:id/alert-rules/:ruleId',
      summary: 'Delete an alert rule',
      params: projectAnd(ruleIdParam),
      answers: answers(undefined, ruleNotFound(), 204),
      async handle(d, { projectId, params }, _request, reply) {
        const r = await ruleOf(d, projectId, params.ruleId);
        await repoOf(d).deleteRule(projectId, r.id);
        return reply.code(204).send();
      },
    }),
    route({
      method: 'post',
      path: '/api/projects/:id/alert-rules/:ruleId/test',
      summary: 'Send a test notification to each destination now',
      params: projectAnd(ruleIdParam),
      answers: answers(z.object({ notifications: z.array(notification) }), ruleNotFound()),
      async handle(d, { projectId, params }) {
        const repo = repoOf(d);
        const r = await ruleOf(d, projectId, params.ruleId);
        const message = testMessage(r, `test|${randomUUID()}`, d.publicUrl);
        const ids = await d.relational.transaction((tx) => enqueueMessage(repo, tx, r, message, leaseMsFor(d.delivery)));
        // Delivered from here at once; a retryable failure stays in the outbox for the alerts consumer's deliverer.
        const due = await repo.claimDue(ids.length, leaseMsFor(d.delivery), ids);
        await Promise.all(due.map((n) => deliverOnce(repo, n, d.delivery)));
        const sent = (await repo.notifications(projectId, { ruleId: r.id, limit: 200 })).filter((n) => ids.includes(n.id));
        return { notifications: sent.map(notificationJson) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/alert-notifications',
      summary: 'Notifications, newest first, with every delivery attempt',
      query: notificationsQuery,
      answers: answers(z.object({ notifications: z.array(notification) })),
      async handle(d, { projectId, query: q }) {
        return { notifications: (await repoOf(d).notifications(projectId, { ruleId: q.rule_id, limit: q.limit })).map(notificationJson) };
      },
    }),
  ],
};
