import { ALERT_RULES_CHANNEL, type AlertRule, type AlertsRepo, type RelationalStore } from '@devtrail/relational-store';
import type { EventKind } from '@devtrail/kinds';
import type { RuleParams } from '@devtrail/alerting';

// The enabled rules of every project, held in memory and reloaded whenever a rule changes
// (PostgreSQL NOTIFY from the repository) and every 30 s in case a notification was missed.

interface Logger {
  warn(obj: object, msg?: string): void;
}

export interface RuleCache {
  start(): Promise<void>;
  stop(): Promise<void>;
  reload(): Promise<void>;
  all(): AlertRule[];
  of(projectId: string): AlertRule[];
  /** Whether any rule of the project needs the events of a kind decoded (not only counted as seen). */
  readsEvents(projectId: string, kind: EventKind): boolean;
  /** Whether any rule of the project watches for a kind falling silent. */
  watchesSilence(projectId: string, kind: EventKind): boolean;
}

export function readsKind(rule: AlertRule, kind: EventKind): boolean {
  switch (rule.type) {
    case 'new_group':
    case 'regressed_group':
      return kind === 'error';
    case 'event_count': {
      const p = rule.params as RuleParams['event_count'];
      return (p.source === 'error_group' && kind === 'error') || (p.source === 'log_level' && kind === 'log') || (p.source === 'error_spans' && kind === 'span');
    }
    case 'llm_cost':
      return kind === 'llm';
    default:
      return false;
  }
}

export function createRuleCache(repo: AlertsRepo, relational: RelationalStore, logger: Logger): RuleCache {
  let rules: AlertRule[] = [];
  let byProject = new Map<string, AlertRule[]>();
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  async function reload() {
    const next = await repo.enabledRules();
    const map = new Map<string, AlertRule[]>();
    for (const r of next) map.set(r.projectId, [...(map.get(r.projectId) ?? []), r]);
    rules = next;
    byProject = map;
  }
  const reloadQuietly = () => reload().catch((err) => logger.warn({ err: (err as Error).message }, 'alert rules not reloaded; keeping the last ones'));

  return {
    async start() {
      await reload();
      unlisten = await relational.listen(
        ALERT_RULES_CHANNEL,
        () => void reloadQuietly(),
        () => void reloadQuietly(),
      );
      timer = setInterval(() => void reloadQuietly(), 30_000);
    },
    async stop() {
      clearInterval(timer);
      await unlisten?.().catch(() => {});
    },
    reload,
    all: () => rules,
    of: (projectId) => byProject.get(projectId) ?? [],
    readsEvents: (projectId, kind) => (byProject.get(projectId) ?? []).some((r) => readsKind(r, kind)),
    watchesSilence: (projectId, kind) => (byProject.get(projectId) ?? []).some((r) => r.type === 'no_events' && (r.params as RuleParams['no_events']).kind === kind),
  };
}
