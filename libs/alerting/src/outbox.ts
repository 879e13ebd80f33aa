import type { AlertRule, AlertsRepo, SqlExecutor } from '@devtrail/relational-store';
import type { AlertMessage } from './alert-message.ts';

// A fired rule becomes one notification per destination, queued in the outbox under the
// message's dedup key: queuing the same incident again (a redelivered batch, a second
// process evaluating the same silence) adds nothing.

export async function enqueueMessage(repo: AlertsRepo, tx: SqlExecutor, rule: AlertRule, message: AlertMessage, heldForMs?: number): Promise<string[]> {
  return repo.enqueue(
    tx,
    rule.destinations.map((d) => ({
      projectId: rule.projectId,
      ruleId: rule.id,
      destinationId: d.id,
      dedupKey: message.dedup_key,
      payload: message as unknown as Record<string, unknown>,
    })),
    heldForMs,
  );
}

/** What "test rule" sends: the rule's own words, marked as a test. */
export function testMessage(rule: AlertRule, dedupKey: string, publicUrl: string | undefined): AlertMessage {
  return {
    rule: { id: rule.id, name: rule.name, type: rule.type },
    project_id: rule.projectId,
    title: `Test of alert rule "${rule.name}"`,
    text: 'This is a test notification sent from devtrail: this destination is set up.',
    dedup_key: dedupKey,
    triggered_at: new Date().toISOString(),
    url: publicUrl ? `${publicUrl}/projects/${encodeURIComponent(rule.projectId)}/alerts` : undefined,
    test: true,
  };
}
