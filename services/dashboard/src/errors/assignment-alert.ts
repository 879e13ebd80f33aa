import { enqueueMessage, type AlertMessage } from '@devtrail/alerting';
import type { ErrorGroup } from '@devtrail/kinds';
import { alertsRepo, type Assignee, type RelationalStore } from '@devtrail/relational-store';

// Alert rules of type group_assigned (docs/alerts.md, "Owning an issue"): an assignment queues
// a notification to each of their destinations, through the outbox the alerts deliverer sends
// from, like any other rule's. Unassigning notifies nobody.

export async function notifyAssignment(
  relational: RelationalStore,
  projectId: string,
  group: Pick<ErrorGroup, 'fingerprint' | 'latest'> | undefined,
  fingerprint: string,
  assignee: Assignee,
  by: string,
  publicUrl: string | undefined,
): Promise<number> {
  const repo = alertsRepo(relational);
  const rules = (await repo.rules(projectId)).filter((r) => r.enabled && r.type === 'group_assigned');
  if (rules.length === 0) return 0;
  const at = new Date().toISOString();
  const l = group?.latest;
  const what = l ? `${l.error_type}: ${l.error_message.replace(/\s+/g, ' ').slice(0, 200)}` : fingerprint;
  let queued = 0;
  await relational.transaction(async (tx) => {
    for (const rule of rules) {
      const message: AlertMessage = {
        rule: { id: rule.id, name: rule.name, type: rule.type },
        project_id: projectId,
        title: `Assigned to ${assignee.name}: ${what}`,
        text: `by ${by}`,
        dedup_key: `assigned|${fingerprint}|${assignee.id}|${at}`,
        triggered_at: at,
        ...(l
          ? { group: { fingerprint, error_type: l.error_type, error_message: l.error_message, service: l.service, environment: l.environment, release: l.release } }
          : {}),
        ...(publicUrl ? { url: `${publicUrl}/projects/${encodeURIComponent(projectId)}/errors/${fingerprint}` } : {}),
      };
      queued += (await enqueueMessage(repo, tx, rule, message)).length;
    }
  });
  return queued;
}
