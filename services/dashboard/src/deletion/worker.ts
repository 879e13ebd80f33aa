import { localTable, onCluster, qualified, type ClusterTarget, type ColumnStore } from '@devtrail/column-store';
import { isRetryable } from '@devtrail/failures';
import type { Logger } from '@devtrail/config';
import type { Deletion, DeletionsRepo } from '@devtrail/relational-store';
import { planDeletion, type TablePlan } from './plan.ts';

// Carries out deletions (docs/data.md#deletion) one step at a time, so any dashboard replica
// can take the next step and a restart loses nothing: each step claims the oldest open
// deletion (a lease in PostgreSQL), looks at ClickHouse, issues what is missing and saves
// the progress the dashboard shows.
//
//   publish    first of all, every deletion not yet published goes to the deletions topic
//              (docs/topics.md, "Deletions"): consumers downstream, the sinks and replay
//              learn of it before any row is deleted, so none of them writes back what it covers
//   deleting   per table: count the rows left; while some are left and no mutation of
//              that table is under way, issue a lightweight DELETE (asynchronous: ClickHouse
//              masks the rows at once and drops them at its next merges)
//   groups     error groups: deleted with the project; after a partial deletion, the
//              project's groups are deleted and rebuilt from the errors that remain
//   verifying  a project's deletion waits DELETION_GRACE_MS, then counts again: a batch a
//              consumer was writing as the project was deleted is deleted too
//   done

export interface TableProgress {
  rows_at_start: number;
  remaining: number;
  done: boolean;
}

export interface DeletionProgress {
  phase: 'deleting' | 'groups' | 'verifying' | 'done';
  tables: Record<string, TableProgress>;
  groups_issued?: boolean;
  verify_after?: string;
}

export interface DeletionWorkerOptions {
  graceMs: number;
  /** Publishes deletions on the deletions topic (acknowledged by Kafka when it resolves). */
  publish(deletions: Deletion[]): Promise<void>;
  /** Pause between steps when there is nothing to do. */
  idleMs?: number;
  leaseMs?: number;
  /** CLICKHOUSE_CLUSTER: deletes go to every shard's local tables (docs/deployment.md#a-clickhouse-cluster). */
  cluster?: ClusterTarget;
}

export function startDeletionWorker(repo: DeletionsRepo, store: ColumnStore, logger: Logger, opts: DeletionWorkerOptions): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastPublishError: string | undefined;

  const tick = async () => {
    let d: Deletion | null = null;
    try {
      try {
        await publishPending(repo, opts.publish);
        lastPublishError = undefined;
      } catch (err) {
        // Said once per distinct error (not every second of a Kafka outage); nothing is deleted meanwhile.
        const message = (err as Error).message;
        if (message !== lastPublishError) logger.warn({ err: message }, 'deletions not published on the deletions topic yet: they are carried out once they are');
        lastPublishError = message;
        throw err;
      }
      d = await repo.claim(opts.leaseMs ?? 60_000);
      if (d && !d.publishedAt) await publishPending(repo, opts.publish, [d]); // recorded after the sweep above
      if (d) await step(repo, store, d, opts.graceMs, opts.cluster);
    } catch (err) {
      if (d && !isRetryable(err)) {
        // ClickHouse refused a statement for good: the deletion says so instead of retrying forever.
        logger.error({ err: (err as Error).message, deletion: d.id }, 'deletion failed');
        await repo.save(d.id, d.progress, 'failed', (err as Error).message).catch(() => {});
      } else {
        // An outage: the lease runs out and the step is taken again later.
        logger.debug({ err: (err as Error).message, deletion: d?.id }, 'deletion step failed; will retry');
      }
    }
    if (!stopped) timer = setTimeout(() => (running = tick()), d ? 200 : (opts.idleMs ?? 1000));
  };
  timer = setTimeout(() => (running = tick()), 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Publishes what is not yet published (or these deletions), then records that it is. */
async function publishPending(repo: DeletionsRepo, publish: DeletionWorkerOptions['publish'], these?: Deletion[]): Promise<void> {
  const pending = these ?? (await repo.unpublished());
  if (pending.length === 0) return;
  await publish(pending);
  await repo.markPublished(pending.map((d) => d.id));
}

const count = async (store: ColumnStore, t: { table: string; where: string; params: Record<string, unknown> }) =>
  Number((await store.query<{ n: string | number }>(`SELECT count() AS n FROM ${t.table} WHERE ${t.where}`, t.params))[0]?.n ?? 0);

/** A mutation of the table under way: on a cluster, of its local table on any replica. */
export const mutationsSql = (cluster?: ClusterTarget) =>
  cluster
    ? `SELECT count() AS n FROM clusterAllReplicas('${cluster.cluster}', system.mutations) WHERE database = {db:String} AND table = {t:String} AND NOT is_done`
    : 'SELECT count() AS n FROM system.mutations WHERE database = currentDatabase() AND table = {t:String} AND NOT is_done';

const mutating = async (store: ColumnStore, table: string, cluster?: ClusterTarget) =>
  Number((await store.query<{ n: string | number }>(mutationsSql(cluster), cluster ? { db: cluster.database, t: localTable(table) } : { t: table }))[0]?.n ?? 0) > 0;

/** The lightweight DELETE of a plan's rows: on a cluster, from the local tables of every shard (a Distributed table takes none). */
export const deleteSql = (t: { table: string; where: string }, cluster?: ClusterTarget) =>
  `DELETE FROM ${cluster ? `${qualified(cluster, localTable(t.table))} ${onCluster(cluster)}` : t.table} WHERE ${t.where} SETTINGS lightweight_deletes_sync = 0`;

const lightweightDelete = (store: ColumnStore, t: { table: string; where: string; params: Record<string, unknown> }, cluster?: ClusterTarget) =>
  store.command(deleteSql(t, cluster), t.params);

/** One table: count what is left, delete it unless a mutation is under way. */
async function deleteFrom(store: ColumnStore, t: TablePlan, progress: DeletionProgress, cluster?: ClusterTarget): Promise<boolean> {
  const remaining = await count(store, t);
  const p = (progress.tables[t.table] ??= { rows_at_start: remaining, remaining, done: false });
  p.remaining = remaining;
  p.done = remaining === 0;
  if (!p.done && !(await mutating(store, t.table, cluster))) await lightweightDelete(store, t, cluster);
  return p.done;
}

export async function step(repo: DeletionsRepo, store: ColumnStore, d: Deletion, graceMs: number, cluster?: ClusterTarget): Promise<void> {
  const plan = planDeletion(d);
  const progress: DeletionProgress = { phase: 'deleting', tables: {}, ...(d.progress as Partial<DeletionProgress>) };
  if (progress.phase === 'deleting') {
    let all = true;
    for (const t of plan.tables) all = (await deleteFrom(store, t, progress, cluster)) && all;
    if (all) progress.phase = plan.groups ? 'groups' : d.reason === 'project' ? 'verifying' : 'done';
  } else if (progress.phase === 'groups' && plan.groups) {
    const g = plan.groups;
    if (!g.rebuild) {
      if (await deleteFrom(store, g, progress, cluster)) progress.phase = 'verifying';
    } else if (!progress.groups_issued) {
      await lightweightDelete(store, g, cluster);
      progress.groups_issued = true;
    } else if (!(await mutating(store, g.table, cluster))) {
      // The delete is applied: rebuild the project's groups from the errors that remain.
      await store.command(g.rebuild, g.params);
      progress.phase = 'done';
    }
  } else if (progress.phase === 'verifying') {
    if (!progress.verify_after) progress.verify_after = new Date(Date.now() + graceMs).toISOString();
    else if (Date.now() >= Date.parse(progress.verify_after)) {
      let clean = true;
      for (const t of [...plan.tables, ...(plan.groups ? [plan.groups] : [])]) {
        const n = await count(store, t);
        if (n > 0) {
          clean = false;
          progress.tables[t.table] = { ...progress.tables[t.table], remaining: n, done: false };
        }
      }
      if (clean) progress.phase = 'done';
      else {
        progress.phase = 'deleting';
        progress.verify_after = undefined;
      }
    }
  }
  await repo.save(d.id, progress as unknown as Record<string, unknown>, progress.phase === 'done' ? 'done' : 'running');
}
