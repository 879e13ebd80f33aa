import type { AlertMessage, RuleParams } from '@devtrail/alerting';
import type { ColumnStore } from '@devtrail/column-store';
import { MAX_RETENTION_DAYS, readReleaseHealth, type ReleaseHealth } from '@devtrail/kinds';
import type { AlertRule } from '@devtrail/relational-store';
import { link, thresholdMessage } from './messages.ts';

// The crash_free_rate rule (docs/alerts.md, "Rules"): per release, the sessions that started in
// the rule's last M minutes, read as the releases page reads them (readReleaseHealth: each
// session its worst status). A session's crash is an update of a session that started earlier,
// stored by the sessions sink and not by this consumer, so the rule is checked on the timer
// against the column store rather than counted from the stream.

const MINUTE = 60_000;

/** The releases under the rule's bound, each with enough sessions to tell (min_sessions). */
export function failingReleases(p: RuleParams['crash_free_rate'], health: ReleaseHealth[]): ReleaseHealth[] {
  return health.filter((r) => r.sessions >= p.min_sessions && r.crash_free_sessions < p.threshold);
}

const percent = (share: number) => `${Math.round(share * 10_000) / 100}%`;

/** One notification per failing release and M-minute window while it stays under. */
export async function crashFreeMessages(store: ColumnStore, rule: AlertRule, nowMs: number, publicUrl: string | undefined): Promise<AlertMessage[]> {
  const p = rule.params as RuleParams['crash_free_rate'];
  const windowMs = p.window_minutes * MINUTE;
  const health = await readReleaseHealth(store, {
    projectId: rule.projectId,
    // A window is at most a day, the shortest retention; each row keeps the retention it was stored with.
    retentionDays: MAX_RETENTION_DAYS,
    range: { fromMs: nowMs - windowMs },
    environment: p.environment,
    release: p.release,
  });
  return failingReleases(p, health).map((r) => {
    const value = Math.round(r.crash_free_sessions * 10_000) / 10_000;
    const message = thresholdMessage(
      rule,
      `Release ${r.release}: ${percent(value)} crash-free sessions`,
      value,
      p.threshold,
      p.window_minutes,
      `crash_free_rate|${r.release}|${Math.floor(nowMs / windowMs)}`,
      nowMs,
      publicUrl,
      { url: link(publicUrl, rule.projectId, '/releases') },
    );
    message.text =
      `${r.crashed} of ${r.sessions} sessions of release ${r.release}${p.environment ? ` in ${p.environment}` : ''} started in the last ` +
      `${p.window_minutes} min crashed: ${percent(value)} crash-free (bound ${percent(p.threshold)}).`;
    return message;
  });
}
