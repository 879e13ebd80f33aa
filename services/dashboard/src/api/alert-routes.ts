import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deliverOnce, enqueueMessage, leaseMsFor, ruleInput, testMessage, type DeliveryOptions } from '@devtrail/alerting';
import { badRequest, notFound } from '@devtrail/http';
import { alertsRepo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { queryInt } from './api-schemas.ts';
import { notificationJson, ruleJson } from './alert-json.ts';

// Alert rules per project, their notifications and every delivery attempt, and "test rule"
// (docs/alerts.md). The rules are evaluated by the alerts consumer; a test is delivered
// from here at once, through the same outbox and sender, and answered with its attempt.
// alert-docs.ts documents each path.

export const ALERT_PATHS = {
  rules: '/api/projects/:id/alert-rules',
  rule: '/api/projects/:id/alert-rules/:ruleId',
  testRule: '/api/projects/:id/alert-rules/:ruleId/test',
  notifications: '/api/projects/:id/alert-notifications',
};

export const ruleIdParam = z.object({ ruleId: z.string().uuid() });
export const notificationsQuery = z.object({ rule_id: z.string().uuid().optional(), limit: queryInt(1, 200).default(50) });

export interface AlertRoutesOptions {
  delivery: DeliveryOptions;
  publicUrl: string | undefined;
}

export function registerAlertRoutes(app: FastifyInstance, relational: RelationalStore, o: AlertRoutesOptions): void {
  const repo = alertsRepo(relational);
  const ruleOf = async (projectId: string, params: unknown) => {
    const { ruleId } = ruleIdParam.parse(params);
    const rule = await repo.rule(projectId, ruleId);
    if (!rule) throw notFound('Alert rule');
    return rule;
  };
  const newIds = (before: Set<string>, after: { destinations: Array<{ id: string }> }) => new Set(after.destinations.map((d) => d.id).filter((id) => !before.has(id)));

  app.get(ALERT_PATHS.rules, async (request) => {
    const projectId = await projectOf(request);
    return { rules: (await repo.rules(projectId)).map((r) => ruleJson(r)) };
  });

  app.post(ALERT_PATHS.rules, async (request, reply) => {
    const projectId = await projectOf(request);
    const body = ruleInput.parse(request.body);
    if (body.destinations.some((d) => 'id' in d)) throw badRequest('A new rule has no destinations to keep yet', '{ type, url }', '{ id }', ['destinations']);
    const rule = await repo.createRule(projectId, body);
    return reply.code(201).send({ rule: ruleJson(rule, newIds(new Set(), rule)) });
  });

  app.get(ALERT_PATHS.rule, async (request) => {
    const projectId = await projectOf(request);
    return { rule: ruleJson(await ruleOf(projectId, request.params)) };
  });

  app.put(ALERT_PATHS.rule, async (request) => {
    const projectId = await projectOf(request);
    const before = await ruleOf(projectId, request.params);
    const body = ruleInput.parse(request.body);
    const unknown = body.destinations.find((d) => 'id' in d && !before.destinations.some((b) => b.id === d.id));
    if (unknown) throw badRequest("Not one of this rule's destinations", 'a destination id of this rule', 'another id', ['destinations']);
    const rule = await repo.updateRule(projectId, before.id, body);
    if (!rule) throw notFound('Alert rule');
    return { rule: ruleJson(rule, newIds(new Set(before.destinations.map((d) => d.id)), rule)) };
  });

  app.delete(ALERT_PATHS.rule, async (request, reply) => {
    const projectId = await projectOf(request);
    const rule = await ruleOf(projectId, request.params);
    await repo.deleteRule(projectId, rule.id);
    return reply.code(204).send();
  });

  app.post(ALERT_PATHS.testRule, async (request) => {
    const projectId = await projectOf(request);
    const rule = await ruleOf(projectId, request.params);
    const message = testMessage(rule, `test|${randomUUID()}`, o.publicUrl);
    const ids = await relational.transaction((tx) => enqueueMessage(repo, tx, rule, message, leaseMsFor(o.delivery)));
    // Delivered from here at once; a retryable failure stays in the outbox for the alerts consumer's deliverer.
    const due = await repo.claimDue(ids.length, leaseMsFor(o.delivery), ids);
    await Promise.all(due.map((n) => deliverOnce(repo, n, o.delivery)));
    const sent = (await repo.notifications(projectId, { ruleId: rule.id, limit: 200 })).filter((n) => ids.includes(n.id));
    return { notifications: sent.map(notificationJson) };
  });

  app.get(ALERT_PATHS.notifications, async (request) => {
    const projectId = await projectOf(request);
    const q = notificationsQuery.parse(request.query);
    return { notifications: (await repo.notifications(projectId, { ruleId: q.rule_id, limit: q.limit })).map(notificationJson) };
  });
}
