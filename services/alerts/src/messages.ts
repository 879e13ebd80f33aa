import type { AlertMessage } from '@devtrail/alerting';
import type { AlertRule } from '@devtrail/relational-store';

// The words of each notification (docs/alerts.md, "Payloads").

export interface GroupInfo {
  fingerprint: string;
  error_type: string;
  error_message: string;
  service: string;
  environment: string;
  release: string;
}

const ruleRef = (r: AlertRule) => ({ id: r.id, name: r.name, type: r.type });
const oneLine = (s: string, max = 200) => (s.replace(/\s+/g, ' ').trim() || '(no message)').slice(0, max);

export function link(publicUrl: string | undefined, projectId: string, rest: string): string | undefined {
  return publicUrl ? `${publicUrl}/projects/${encodeURIComponent(projectId)}${rest}` : undefined;
}

export function groupMessage(
  rule: AlertRule,
  what: 'new' | 'regressed',
  g: GroupInfo,
  dedupKey: string,
  atMs: number,
  publicUrl: string | undefined,
  details: string[] = [],
): AlertMessage {
  const title = `${what === 'new' ? 'New error' : 'Regression'}: ${g.error_type}: ${oneLine(g.error_message)}`;
  const where = [g.service && `service ${g.service}`, g.environment && `environment ${g.environment}`, g.release && `release ${g.release}`].filter(Boolean).join(', ');
  return {
    rule: ruleRef(rule),
    project_id: rule.projectId,
    title,
    text: [where, ...details].filter(Boolean).join('\n'),
    dedup_key: dedupKey,
    triggered_at: new Date(atMs).toISOString(),
    group: g,
    url: link(publicUrl, rule.projectId, `/errors/${g.fingerprint}`),
  };
}

export function thresholdMessage(
  rule: AlertRule,
  title: string,
  value: number,
  threshold: number,
  windowMinutes: number,
  dedupKey: string,
  atMs: number,
  publicUrl: string | undefined,
  extra: Partial<AlertMessage> = {},
): AlertMessage {
  return {
    rule: ruleRef(rule),
    project_id: rule.projectId,
    title,
    text: `${value} in the last ${windowMinutes} min (bound ${threshold})`,
    dedup_key: dedupKey,
    triggered_at: new Date(atMs).toISOString(),
    value,
    threshold,
    window_minutes: windowMinutes,
    url: link(publicUrl, rule.projectId, ''),
    ...extra,
  };
}
