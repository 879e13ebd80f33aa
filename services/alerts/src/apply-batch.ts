import { enqueueMessage, type AlertMessage, type RuleParams } from '@devtrail/alerting';
import { effectiveCostUsd, type LlmPriceTable } from '@devtrail/config';
import type { Envelope } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import {
  addHistory,
  freshState,
  isUuid,
  lockStates,
  releasesFirstSeen,
  saveState,
  SYSTEM_ACTOR,
  touchReleases,
  type AlertRule,
  type AlertsRepo,
  type RelationalStore,
  type SqlExecutor,
} from '@devtrail/relational-store';
import { groupMessage, thresholdMessage, type GroupInfo } from './messages.ts';
import type { RuleCache } from './rule-cache.ts';
import type { StreamItem } from './stream-item.ts';
import { applyEvents, type GroupEvent } from './triage/transition.ts';

// One batch of one topic, applied in ONE PostgreSQL transaction (docs/alerts.md, "How the
// consumer works"):
//   positions  the next offset per partition recorded with the state; items below it were
//              applied before (a redelivery after a crash) and are skipped
//   triage     (errors) group states created or moved on (regressions, ignores running out)
//   counts     per-minute counts behind threshold rules; last seen per kind
//   rules      fired rules become notifications in the outbox, unique per dedup key
// Only after the commit does the kit commit the Kafka offsets: state is durable first, and a
// batch applied twice changes nothing the second time.

const MINUTE = 60_000;
const minuteOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

export interface BatchContext {
  relational: RelationalStore;
  repo: AlertsRepo;
  rules: RuleCache;
  topic: string;
  llmPrices: LlmPriceTable;
  publicUrl: string | undefined;
}

interface Fired {
  rule: AlertRule;
  message: AlertMessage;
}

/** Counts to add, by project, subject and minute. */
class Counts {
  readonly cells = new Map<string, { projectId: string; subject: string; minuteMs: number; value: number }>();
  readonly latest = new Map<string, number>(); // "project|subject" -> latest time counted
  add(projectId: string, subject: string, atMs: number, value = 1) {
    const minuteMs = minuteOf(atMs);
    const key = `${projectId}|${subject}|${minuteMs}`;
    const c = this.cells.get(key);
    if (c) c.value += value;
    else this.cells.set(key, { projectId, subject, minuteMs, value });
    const k = `${projectId}|${subject}`;
    this.latest.set(k, Math.max(this.latest.get(k) ?? 0, atMs));
  }
}

function groupInfo(e: Envelope<'error'>, fingerprint = e.data.fingerprint): GroupInfo {
  const d = e.data;
  return { fingerprint, error_type: d.error_type, error_message: d.error_message, service: d.service, environment: d.environment, release: d.release };
}

function rulesOfType<T extends AlertRule['type']>(ctx: BatchContext, projectId: string, type: T): AlertRule[] {
  return ctx.rules.of(projectId).filter((r) => r.type === type);
}

async function mergedInto(tx: SqlExecutor, projectId: string, fingerprints: string[]): Promise<Map<string, string>> {
  const rows = await tx.query<{ source: string; target: string }>('SELECT source, target FROM error_group_merges WHERE project_id = $1 AND source = ANY($2::text[])', [
    projectId,
    fingerprints,
  ]);
  return new Map(rows.map((r) => [r.source.trim(), r.target.trim()]));
}

async function applyErrors(ctx: BatchContext, tx: SqlExecutor, items: StreamItem[], counts: Counts, fired: Fired[]) {
  const byProject = new Map<string, StreamItem<'error'>[]>();
  for (const i of items as StreamItem<'error'>[]) if (i.event) byProject.set(i.projectId, [...(byProject.get(i.projectId) ?? []), i]);
  for (const [projectId, events] of byProject) {
    const releases = new Map<string, { first: string; last: string }>();
    const byGroup = new Map<string, StreamItem<'error'>[]>();
    // An event produced before its group was merged by hand counts for the group it was merged into.
    const merged = await mergedInto(tx, projectId, [...new Set(events.map((i) => i.event!.data.fingerprint))]);
    for (const i of events) {
      const fp = merged.get(i.event!.data.fingerprint) ?? i.event!.data.fingerprint;
      byGroup.set(fp, [...(byGroup.get(fp) ?? []), i]);
      const r = i.event!.data.release;
      if (r) {
        const at = new Date(i.atMs).toISOString();
        const seen = releases.get(r);
        releases.set(r, { first: seen && seen.first < at ? seen.first : at, last: seen && seen.last > at ? seen.last : at });
      }
    }
    await touchReleases(tx, projectId, releases);
    const states = await lockStates(tx, projectId, [...byGroup.keys()]);
    const resolvedIn = [...states.values()].map((s) => s.resolvedInRelease).filter((r): r is string => !!r);
    const firstSeen = await releasesFirstSeen(tx, projectId, [...new Set([...releases.keys(), ...resolvedIn])]);
    const countGroups = rulesOfType(ctx, projectId, 'event_count').some((r) => (r.params as RuleParams['event_count']).source === 'error_group');
    for (const [fp, group] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
      const groupEvents: GroupEvent[] = group.map((i) => ({ atMs: i.atMs, release: i.event!.data.release }));
      const before = states.get(fp);
      const out = applyEvents(before, freshState(projectId, fp), groupEvents, firstSeen);
      await saveState(tx, out.state);
      for (const t of out.transitions) await addHistory(tx, projectId, fp, SYSTEM_ACTOR, t.action, t.from, t.to, t.details);
      const latest = group.reduce((a, b) => (b.atMs >= a.atMs ? b : a));
      if (out.created) {
        for (const rule of rulesOfType(ctx, projectId, 'new_group')) {
          fired.push({ rule, message: groupMessage(rule, 'new', groupInfo(latest.event!, fp), `new|${fp}`, group[0].atMs, ctx.publicUrl) });
        }
      }
      if (out.regressed) {
        const regression = out.transitions.filter((t) => t.action === 'regression').at(-1)!;
        const why = regression.details.resolved_in_release
          ? `resolved in release ${regression.details.resolved_in_release}`
          : `resolved at ${regression.details.resolved_at}`;
        for (const rule of rulesOfType(ctx, projectId, 'regressed_group')) {
          fired.push({
            rule,
            message: groupMessage(
              rule,
              'regressed',
              groupInfo(latest.event!, fp),
              `regressed|${fp}|${out.state.regressions}`,
              Date.parse(out.state.regressedAt!),
              ctx.publicUrl,
              [`was ${why}; new event at ${regression.details.event_at}${regression.details.release ? ` in release ${regression.details.release}` : ''}`],
            ),
          });
        }
      }
      if (countGroups) for (const i of group) counts.add(projectId, `group:${fp}`, i.atMs);
    }
  }
}

function countOthers(ctx: BatchContext, kind: EventKind, items: StreamItem[], counts: Counts) {
  for (const i of items) {
    if (!i.event) continue;
    if (kind === 'log') {
      const level = (i.event as Envelope<'log'>).data.level;
      const wanted = rulesOfType(ctx, i.projectId, 'event_count').some((r) => {
        const p = r.params as RuleParams['event_count'];
        return p.source === 'log_level' && p.level === level;
      });
      if (wanted) counts.add(i.projectId, `log:${level}`, i.atMs);
    } else if (kind === 'span') {
      if ((i.event as Envelope<'span'>).data.status === 'error') counts.add(i.projectId, 'spans:error', i.atMs);
    } else if (kind === 'llm') {
      const d = (i.event as Envelope<'llm'>).data;
      const cost = effectiveCostUsd(ctx.llmPrices, d);
      if (cost > 0) counts.add(i.projectId, 'llm:cost', i.atMs, cost);
    }
  }
}

/** Which count subject a threshold rule watches, and whether a counted subject is one of its. */
function watches(rule: AlertRule, subject: string): boolean {
  if (rule.type === 'llm_cost') return subject === 'llm:cost';
  if (rule.type !== 'event_count') return false;
  const p = rule.params as RuleParams['event_count'];
  if (p.source === 'error_group') return subject.startsWith('group:');
  if (p.source === 'log_level') return subject === `log:${p.level}`;
  return subject === 'spans:error';
}

function thresholdTitle(rule: AlertRule, subject: string): string {
  if (rule.type === 'llm_cost') return 'LLM cost over budget';
  if (subject.startsWith('group:')) return `Error group ${subject.slice(6, 18)}… over its event bound`;
  if (subject.startsWith('log:')) return `Too many ${subject.slice(4)} logs`;
  return 'Too many error spans';
}

async function evaluateThresholds(ctx: BatchContext, tx: SqlExecutor, counts: Counts, fired: Fired[]) {
  for (const [key, atMs] of counts.latest) {
    const [projectId, subject] = [key.slice(0, key.indexOf('|')), key.slice(key.indexOf('|') + 1)];
    for (const rule of ctx.rules.of(projectId).filter((r) => watches(r, subject))) {
      const p = rule.params as { window_minutes: number; threshold?: number; budget_usd?: number };
      const bound = rule.type === 'llm_cost' ? p.budget_usd! : p.threshold!;
      const windowMs = p.window_minutes * MINUTE;
      const value = await ctx.repo.windowSum(tx, projectId, subject, minuteOf(atMs) - windowMs + MINUTE);
      if (value <= bound) continue;
      const shown = rule.type === 'llm_cost' ? Math.round(value * 1e6) / 1e6 : value;
      const dedupKey = `${rule.type}|${subject}|${Math.floor(atMs / windowMs)}`;
      const extra = subject.startsWith('group:')
        ? { group: { fingerprint: subject.slice(6), error_type: '', error_message: '', service: '', environment: '', release: '' } }
        : {};
      fired.push({ rule, message: thresholdMessage(rule, thresholdTitle(rule, subject), shown, bound, p.window_minutes, dedupKey, atMs, ctx.publicUrl, extra) });
    }
  }
}

/** Applies one batch of a kind's items; answers how many notifications it queued. */
export async function applyBatch(ctx: BatchContext, kind: EventKind, items: StreamItem[]): Promise<number> {
  if (items.length === 0) return 0;
  return ctx.relational.transaction(async (tx) => {
    const positions = await ctx.repo.lockPositions(
      tx,
      ctx.topic,
      items.map((i) => i.partition),
    );
    const fresh = items.filter((i) => i.offset >= (positions.get(i.partition) ?? 0n));
    if (fresh.length === 0) return 0;
    const next = new Map<number, bigint>();
    for (const i of fresh) next.set(i.partition, i.offset + 1n > (next.get(i.partition) ?? 0n) ? i.offset + 1n : next.get(i.partition)!);

    // A deleted project's events may still be in Kafka (docs/data.md#deletion): nothing of
    // them is kept (its rows would refer to a project that is gone); their positions still move.
    const ids = [...new Set(fresh.map((i) => i.projectId))];
    const asked = ids.filter(isUuid);
    const live = new Set(
      asked.length === 0 ? [] : (await tx.query<{ id: string }>('SELECT id::text AS id FROM projects WHERE id = ANY($1::uuid[])', [asked])).map((r) => r.id),
    );
    const kept = live.size === ids.length ? fresh : fresh.filter((i) => live.has(i.projectId));

    const counts = new Counts();
    const fired: Fired[] = [];
    if (kind === 'error') await applyErrors(ctx, tx, kept, counts, fired);
    else countOthers(ctx, kind, kept, counts);
    await ctx.repo.addCounts(tx, [...counts.cells.values()]);
    await evaluateThresholds(ctx, tx, counts, fired);

    const lastSeen = new Map<string, number>();
    for (const i of kept) if (ctx.rules.watchesSilence(i.projectId, kind)) lastSeen.set(i.projectId, Math.max(lastSeen.get(i.projectId) ?? 0, i.atMs));
    for (const [projectId, at] of lastSeen) await ctx.repo.touchLastSeen(tx, projectId, kind, at);

    let queued = 0;
    for (const f of fired) queued += (await enqueueMessage(ctx.repo, tx, f.rule, f.message)).length;
    await ctx.repo.savePositions(tx, ctx.topic, next);
    return queued;
  });
}
