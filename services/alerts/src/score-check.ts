import type { AlertMessage, RuleParams } from '@devtrail/alerting';
import type { ColumnStore } from '@devtrail/column-store';
import { MAX_RETENTION_DAYS, readScoreSummary } from '@devtrail/kinds';
import type { AlertRule } from '@devtrail/relational-store';
import { link, thresholdMessage } from './messages.ts';

// The llm_score rule (docs/alerts.md, "Rules"): the average of one score name over the rule's
// last M minutes, read as the scores summary reads it (each score its latest version, so a
// corrected score counts once, as it now stands). Scores come from the receiver, OTLP and the
// dashboard's annotations alike, so the rule is checked on the timer against the column store.

const MINUTE = 60_000;
const rounded = (v: number) => Math.round(v * 10_000) / 10_000;

/** One notification per M-minute window while the average stays under the bound with enough scores. */
export async function scoreMessages(store: ColumnStore, rule: AlertRule, nowMs: number, publicUrl: string | undefined): Promise<AlertMessage[]> {
  const p = rule.params as RuleParams['llm_score'];
  const windowMs = p.window_minutes * MINUTE;
  const [summary] = await readScoreSummary(store, {
    projectId: rule.projectId,
    // A window is at most a day, the shortest retention; each row keeps the retention it was stored with.
    retentionDays: MAX_RETENTION_DAYS,
    range: { fromMs: nowMs - windowMs, toMs: nowMs },
    name: p.name,
  });
  if (!summary || summary.average === null || summary.count < p.min_scores || summary.average >= p.threshold) return [];
  const value = rounded(summary.average);
  const message = thresholdMessage(
    rule,
    `Score ${p.name} averages ${value}`,
    value,
    p.threshold,
    p.window_minutes,
    `llm_score|${p.name}|${Math.floor(nowMs / windowMs)}`,
    nowMs,
    publicUrl,
    { url: link(publicUrl, rule.projectId, '/llm') },
  );
  message.text = `The ${summary.count} ${p.name} scores of the last ${p.window_minutes} min average ${value} (bound ${p.threshold}).`;
  return [message];
}
