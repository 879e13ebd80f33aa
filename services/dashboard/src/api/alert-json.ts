import type { AlertRule, Destination, NotificationView } from '@devtrail/relational-store';

// Rules and notifications as the API shows them. A destination's URL is a credential
// (a Slack incoming webhook's path is its secret; a webhook URL may carry a token), so
// answers show where it points, not all of it; a webhook's signing secret appears only in
// the answer that created the destination.

export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 12 ? `${u.pathname.slice(0, 8)}…${u.pathname.slice(-4)}` : u.pathname;
    return `${u.protocol}//${u.host}${path}${u.search ? '?…' : ''}`;
  } catch {
    return '…';
  }
}

export const destinationJson = (d: Destination, reveal: boolean) => ({
  id: d.id,
  type: d.type,
  url: maskedUrl(d.url),
  has_signing_secret: d.secret !== null,
  ...(reveal && d.secret ? { signing_secret: d.secret } : {}),
});

export const ruleJson = (r: AlertRule, revealFor: Set<string> = new Set()) => ({
  id: r.id,
  name: r.name,
  type: r.type,
  params: r.params,
  enabled: r.enabled,
  destinations: r.destinations.map((d) => destinationJson(d, revealFor.has(d.id))),
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

export const notificationJson = (n: NotificationView) => ({
  id: n.id,
  rule_id: n.ruleId,
  rule_name: n.ruleName,
  destination_id: n.destinationId,
  destination_type: n.destinationType,
  dedup_key: n.dedupKey,
  status: n.status,
  title: typeof n.payload.title === 'string' ? n.payload.title : '',
  test: n.payload.test === true,
  created_at: n.createdAt,
  delivered_at: n.deliveredAt,
  next_attempt_at: n.nextAttemptAt,
  last_error: n.lastError,
  attempts: n.attempts.map((a) => ({
    attempt: a.attempt,
    started_at: a.startedAt,
    latency_ms: a.latencyMs,
    status_code: a.statusCode,
    outcome: a.outcome,
    error: a.error,
  })),
});
