import { enqueueMessage, type AlertMessage, type RuleParams } from '@devtrail/alerting';
import type { ColumnStore } from '@devtrail/column-store';
import { KINDS, type EventKind } from '@devtrail/kinds';
import type { AlertRule, AlertsRepo, RelationalStore } from '@devtrail/relational-store';
import { crashFreeMessages } from './crash-free-check.ts';
import { scoreMessages } from './score-check.ts';
import { thresholdMessage } from './messages.ts';
import type { RuleCache } from './rule-cache.ts';

// The rules no event can trigger, checked on a timer (ALERT_CHECK_INTERVAL_MS):
// - no events of a kind for M minutes: measured from the later of the last event seen and the
//   rule's last change, and only while this consumer has read everything of that kind (a
//   consumer that is behind cannot tell silence from its own lag); one notification per silence
// - consumer lag above a bound: the summed lag of devtrail's sink groups; at most one
//   notification per rule window while it stays above
// - crash-free sessions of a release under a bound: read from the column store
//   (crash-free-check.ts); one notification per release and rule window while it stays under
// - a score's average under a bound: read from the column store (score-check.ts); one
//   notification per rule window while it stays under.
// Every process running the alerts consumer checks; the outbox's dedup key makes it one notification.

const MINUTE = 60_000;

export interface CheckContext {
  relational: RelationalStore;
  repo: AlertsRepo;
  rules: RuleCache;
  publicUrl: string | undefined;
  /** This consumer's own lag on a kind's topic (messages). */
  ownLag(kind: EventKind): Promise<number>;
  /** The summed lag of devtrail's column-store sinks (messages). */
  sinkLag(): Promise<number>;
  /** Where the sinks store sessions and scores (crash_free_rate, llm_score). */
  columnStore: ColumnStore;
}

async function enqueue(ctx: CheckContext, rule: AlertRule, message: AlertMessage): Promise<number> {
  return ctx.relational.transaction(async (tx) => (await enqueueMessage(ctx.repo, tx, rule, message)).length);
}

export async function runChecks(ctx: CheckContext, nowMs = Date.now()): Promise<number> {
  let queued = 0;
  let sinkLag: number | undefined;
  for (const rule of ctx.rules.all()) {
    if (rule.type === 'no_events') {
      const p = rule.params as RuleParams['no_events'];
      const last = await ctx.repo.lastSeen(rule.projectId, p.kind);
      const since = Math.max(last ?? 0, Date.parse(rule.updatedAt));
      if (nowMs - since < p.window_minutes * MINUTE) continue;
      if ((await ctx.ownLag(p.kind)) > 0) continue;
      const title = `No ${KINDS[p.kind].name} received for ${p.window_minutes} min`;
      const message = thresholdMessage(rule, title, 0, 0, p.window_minutes, `no_events|${p.kind}|${since}`, nowMs, ctx.publicUrl);
      message.text = last ? `The last one arrived at ${new Date(last).toISOString()}.` : 'None has arrived since the rule was set.';
      queued += await enqueue(ctx, rule, message);
    } else if (rule.type === 'consumer_lag') {
      const p = rule.params as RuleParams['consumer_lag'];
      sinkLag ??= await ctx.sinkLag();
      if (sinkLag <= p.max_lag) continue;
      const windowMs = p.window_minutes * MINUTE;
      const message = thresholdMessage(
        rule,
        'Consumer lag above its bound',
        sinkLag,
        p.max_lag,
        p.window_minutes,
        `consumer_lag|${Math.floor(nowMs / windowMs)}`,
        nowMs,
        ctx.publicUrl,
      );
      message.text = `devtrail's sinks are ${sinkLag} messages behind (bound ${p.max_lag}): new events reach the dashboard late.`;
      queued += await enqueue(ctx, rule, message);
    }
  }
  // Last, each on its own: a column store that fails must not hold up the rules above (the lag
  // rule is the one that tells of it); the first failure is still the pass's error.
  let failed: unknown;
  const fromStore = { crash_free_rate: crashFreeMessages, llm_score: scoreMessages } as const;
  for (const rule of ctx.rules.all().filter((r) => r.type === 'crash_free_rate' || r.type === 'llm_score')) {
    try {
      for (const message of await fromStore[rule.type as keyof typeof fromStore](ctx.columnStore, rule, nowMs, ctx.publicUrl))
        queued += await enqueue(ctx, rule, message);
    } catch (err) {
      failed ??= err;
    }
  }
  if (failed) throw failed;
  return queued;
}
