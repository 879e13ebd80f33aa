import { randomBytes } from 'node:crypto';
import type { RelationalStore, SqlExecutor } from './relational-store.ts';

// Alert rules and their destinations, the notification outbox with every delivery
// attempt, and the alerts consumer's own state (per-minute counts, last seen per kind,
// applied positions). docs/alerts.md.

/** NOTIFYed with the project id whenever a rule or destination changes (consumers reload). */
export const ALERT_RULES_CHANNEL = 'devtrail_alert_rules_changed';
/** NOTIFYed when notifications were queued (deliverers wake up at once). */
export const ALERT_PENDING_CHANNEL = 'devtrail_alert_pending';

export type DestinationType = 'webhook' | 'slack';

export interface Destination {
  id: string;
  type: DestinationType;
  url: string;
  /** The webhook signing secret; null for Slack. Only the repository and the deliverer see it. */
  secret: string | null;
}

export interface AlertRule {
  id: string;
  projectId: string;
  name: string;
  type: string;
  params: Record<string, unknown>;
  enabled: boolean;
  destinations: Destination[];
  createdAt: string;
  updatedAt: string;
}

export interface RuleInput {
  name: string;
  type: string;
  params: Record<string, unknown>;
  enabled: boolean;
  /** A new destination ({ type, url }) or one of the rule's own kept as it is ({ id }). */
  destinations: Array<{ type: DestinationType; url: string } | { id: string }>;
}

export interface NewNotification {
  projectId: string;
  ruleId: string;
  destinationId: string;
  dedupKey: string;
  payload: Record<string, unknown>;
}

export interface DueNotification {
  id: string;
  projectId: string;
  ruleId: string;
  attempts: number;
  payload: Record<string, unknown>;
  destination: Destination;
  createdAt: string;
}

export interface Attempt {
  attempt: number;
  startedAt: string;
  latencyMs: number;
  statusCode: number | null;
  outcome: string;
  error: string | null;
}

export interface NotificationView {
  id: string;
  ruleId: string;
  ruleName: string;
  destinationId: string;
  destinationType: DestinationType;
  dedupKey: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  lastError: string | null;
  payload: Record<string, unknown>;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const jsonOf = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** A webhook signing secret: 32 random bytes, shown to its owner when the destination is made. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

interface RuleRow {
  id: string;
  project_id: string;
  name: string;
  type: string;
  params: Record<string, unknown> | string;
  enabled: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

interface DestRow {
  id: string;
  rule_id: string;
  type: DestinationType;
  url: string;
  secret: string | null;
}

async function withDestinations(db: SqlExecutor, rows: RuleRow[]): Promise<AlertRule[]> {
  if (rows.length === 0) return [];
  const dests = await db.query<DestRow>('SELECT id, rule_id, type, url, secret FROM alert_destinations WHERE rule_id = ANY($1::uuid[]) ORDER BY created_at, id', [
    rows.map((r) => r.id),
  ]);
  return rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    name: r.name,
    type: r.type,
    params: jsonOf(r.params),
    enabled: r.enabled,
    destinations: dests.filter((d) => d.rule_id === r.id).map((d) => ({ id: d.id, type: d.type, url: d.url, secret: d.secret })),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  }));
}

const RULE_COLUMNS = 'id, project_id, name, type, params, enabled, created_at, updated_at';
const notifyRules = (tx: SqlExecutor, projectId: string) => tx.query('SELECT pg_notify($1, $2)', [ALERT_RULES_CHANNEL, projectId]);

async function insertDestinations(tx: SqlExecutor, ruleId: string, dests: RuleInput['destinations']) {
  for (const d of dests) {
    if ('id' in d) continue;
    await tx.query('INSERT INTO alert_destinations (rule_id, type, url, secret) VALUES ($1, $2, $3, $4)', [
      ruleId,
      d.type,
      d.url,
      d.type === 'webhook' ? newSigningSecret() : null,
    ]);
  }
}

export function alertsRepo(store: RelationalStore) {
  return {
    async createRule(projectId: string, input: RuleInput): Promise<AlertRule> {
      return store.transaction(async (tx) => {
        const [row] = await tx.query<RuleRow>(`INSERT INTO alert_rules (project_id, name, type, params, enabled) VALUES ($1, $2, $3, $4, $5) RETURNING ${RULE_COLUMNS}`, [
          projectId,
          input.name,
          input.type,
          JSON.stringify(input.params),
          input.enabled,
        ]);
        await insertDestinations(tx, row.id, input.destinations);
        await notifyRules(tx, projectId);
        return (await withDestinations(tx, [row]))[0];
      });
    },

    /**
     * Replaces a rule's settings. A destination named by id stays as it is (its secret, its
     * notifications); one not named is removed; a new one gets a new secret.
     */
    async updateRule(projectId: string, ruleId: string, input: RuleInput): Promise<AlertRule | null> {
      return store.transaction(async (tx) => {
        const [row] = await tx.query<RuleRow>(
          `UPDATE alert_rules SET name = $3, type = $4, params = $5, enabled = $6, updated_at = now() WHERE project_id = $1 AND id = $2 RETURNING ${RULE_COLUMNS}`,
          [projectId, ruleId, input.name, input.type, JSON.stringify(input.params), input.enabled],
        );
        if (!row) return null;
        const keep = input.destinations.flatMap((d) => ('id' in d ? [d.id] : []));
        await tx.query('DELETE FROM alert_destinations WHERE rule_id = $1 AND NOT (id = ANY($2::uuid[]))', [ruleId, keep]);
        await insertDestinations(tx, ruleId, input.destinations);
        await notifyRules(tx, projectId);
        return (await withDestinations(tx, [row]))[0];
      });
    },

    async deleteRule(projectId: string, ruleId: string): Promise<boolean> {
      return store.transaction(async (tx) => {
        const rows = await tx.query('DELETE FROM alert_rules WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, ruleId]);
        if (rows.length > 0) await notifyRules(tx, projectId);
        return rows.length > 0;
      });
    },

    async rule(projectId: string, ruleId: string): Promise<AlertRule | null> {
      const rows = await store.query<RuleRow>(`SELECT ${RULE_COLUMNS} FROM alert_rules WHERE project_id = $1 AND id = $2`, [projectId, ruleId]);
      return (await withDestinations(store, rows))[0] ?? null;
    },

    async rules(projectId: string): Promise<AlertRule[]> {
      const rows = await store.query<RuleRow>(`SELECT ${RULE_COLUMNS} FROM alert_rules WHERE project_id = $1 ORDER BY created_at, id`, [projectId]);
      return withDestinations(store, rows);
    },

    /** Every enabled rule of every project (what the alerts consumer evaluates). */
    async enabledRules(): Promise<AlertRule[]> {
      const rows = await store.query<RuleRow>(`SELECT ${RULE_COLUMNS} FROM alert_rules WHERE enabled ORDER BY created_at, id`);
      return withDestinations(store, rows);
    },

    /**
     * Queues notifications; one already queued under the same (rule, destination, dedup key) is
     * not queued again. Answers the new ids. `heldForMs`: the caller sends them itself (a test
     * send), so they start leased to it and no deliverer is woken.
     */
    async enqueue(tx: SqlExecutor, items: NewNotification[], heldForMs?: number): Promise<string[]> {
      const ids: string[] = [];
      for (const n of items) {
        const rows = await tx.query<{ id: string }>(
          `INSERT INTO alert_notifications (project_id, rule_id, destination_id, dedup_key, payload, lease_until)
           VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::text IS NULL THEN NULL ELSE now() + ($6::text || ' milliseconds')::interval END)
           ON CONFLICT (rule_id, destination_id, dedup_key) DO NOTHING RETURNING id`,
          [n.projectId, n.ruleId, n.destinationId, n.dedupKey.slice(0, 500), JSON.stringify(n.payload), heldForMs === undefined ? null : String(heldForMs)],
        );
        if (rows[0]) ids.push(rows[0].id);
      }
      if (ids.length > 0 && heldForMs === undefined) await tx.query('SELECT pg_notify($1, $2)', [ALERT_PENDING_CHANNEL, String(ids.length)]);
      return ids;
    },

    /**
     * Takes up to `limit` due notifications for `leaseMs`: another deliverer (or this one after a
     * crash) takes a notification again only once its lease ran out. Counts the attempt.
     * At most one per destination, and none of a destination that has one leased already (being
     * sent, here or by another deliverer): a destination that hangs holds only its own
     * notifications, and each destination gets its notifications in order (docs/alerts.md).
     * `only`: these notifications, which the caller holds already (enqueue's heldForMs).
     */
    async claimDue(limit: number, leaseMs: number, only?: string[]): Promise<DueNotification[]> {
      const rows = await store.query<{
        id: string;
        project_id: string;
        rule_id: string;
        attempts: number;
        payload: Record<string, unknown> | string;
        created_at: Date | string;
        d_id: string;
        d_type: DestinationType;
        d_url: string;
        d_secret: string | null;
      }>(
        `WITH free AS (
           SELECT DISTINCT ON (c.destination_id) c.id FROM alert_notifications c
            WHERE $3::uuid[] IS NULL AND c.status = 'pending' AND c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until < now())
              AND NOT EXISTS (SELECT 1 FROM alert_notifications b
                               WHERE b.status = 'pending' AND b.destination_id = c.destination_id AND b.lease_until >= now())
            ORDER BY c.destination_id, c.next_attempt_at),
         due AS (
           SELECT id FROM alert_notifications
            WHERE status = 'pending' AND next_attempt_at <= now()
              AND ($3::uuid[] IS NULL AND (lease_until IS NULL OR lease_until < now()) AND id IN (SELECT id FROM free) OR id = ANY($3::uuid[]))
            ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         UPDATE alert_notifications n SET lease_until = now() + ($2 || ' milliseconds')::interval, attempts = n.attempts + 1
           FROM due, alert_destinations d
          WHERE n.id = due.id AND d.id = n.destination_id
         RETURNING n.id, n.project_id, n.rule_id, n.attempts, n.payload, n.created_at, d.id AS d_id, d.type AS d_type, d.url AS d_url, d.secret AS d_secret`,
        [limit, String(leaseMs), only ?? null],
      );
      return rows.map((r) => ({
        id: r.id,
        projectId: r.project_id,
        ruleId: r.rule_id,
        attempts: r.attempts,
        payload: jsonOf(r.payload),
        createdAt: iso(r.created_at)!,
        destination: { id: r.d_id, type: r.d_type, url: r.d_url, secret: r.d_secret },
      }));
    },

    /** Milliseconds until the earliest pending notification is due (0: due now); null when none is pending. */
    async nextDueInMs(): Promise<number | null> {
      const [row] = await store.query<{ ms: number | string | null }>(
        `SELECT EXTRACT(EPOCH FROM (min(GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at))) - now())) * 1000 AS ms FROM alert_notifications WHERE status = 'pending'`,
      );
      return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Number(row.ms));
    },

    /** Records one attempt and what follows from it: delivered, retried at `retryAtMs`, or failed for good. */
    async recordAttempt(id: string, a: Attempt, next: { delivered: true } | { delivered: false; retryAtMs: number | null }): Promise<void> {
      await store.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO alert_delivery_attempts (notification_id, attempt, started_at, latency_ms, status_code, outcome, error) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [id, a.attempt, a.startedAt, a.latencyMs, a.statusCode, a.outcome, a.error],
        );
        if (next.delivered) {
          await tx.query("UPDATE alert_notifications SET status = 'delivered', delivered_at = now(), lease_until = NULL, last_error = NULL WHERE id = $1", [id]);
        } else if (next.retryAtMs !== null) {
          await tx.query('UPDATE alert_notifications SET next_attempt_at = $2, lease_until = NULL, last_error = $3 WHERE id = $1', [
            id,
            new Date(next.retryAtMs).toISOString(),
            a.error,
          ]);
          await tx.query('SELECT pg_notify($1, $2)', [ALERT_PENDING_CHANNEL, 'retry']); // deliverers wake to time the retry
        } else {
          await tx.query("UPDATE alert_notifications SET status = 'failed', lease_until = NULL, last_error = $2 WHERE id = $1", [id, a.error]);
        }
      });
    },

    /** A project's notifications, newest first, with their attempts (optionally one rule's). */
    async notifications(projectId: string, opts: { ruleId?: string; limit?: number } = {}): Promise<NotificationView[]> {
      const rows = await store.query<{
        id: string;
        rule_id: string;
        rule_name: string;
        destination_id: string;
        d_type: DestinationType;
        dedup_key: string;
        status: NotificationView['status'];
        next_attempt_at: Date | string;
        created_at: Date | string;
        delivered_at: Date | string | null;
        last_error: string | null;
        payload: Record<string, unknown> | string;
      }>(
        `SELECT n.id, n.rule_id, r.name AS rule_name, n.destination_id, d.type AS d_type, n.dedup_key, n.status, n.next_attempt_at, n.created_at,
                n.delivered_at, n.last_error, n.payload
           FROM alert_notifications n JOIN alert_rules r ON r.id = n.rule_id JOIN alert_destinations d ON d.id = n.destination_id
          WHERE n.project_id = $1 AND ($2::uuid IS NULL OR n.rule_id = $2::uuid)
          ORDER BY n.created_at DESC, n.id LIMIT $3`,
        [projectId, opts.ruleId ?? null, Math.min(opts.limit ?? 50, 200)],
      );
      if (rows.length === 0) return [];
      const attempts = await store.query<{
        notification_id: string;
        attempt: number;
        started_at: Date | string;
        latency_ms: number;
        status_code: number | null;
        outcome: string;
        error: string | null;
      }>(
        'SELECT notification_id, attempt, started_at, latency_ms, status_code, outcome, error FROM alert_delivery_attempts WHERE notification_id = ANY($1::uuid[]) ORDER BY attempt, id',
        [rows.map((r) => r.id)],
      );
      return rows.map((r) => ({
        id: r.id,
        ruleId: r.rule_id,
        ruleName: r.rule_name,
        destinationId: r.destination_id,
        destinationType: r.d_type,
        dedupKey: r.dedup_key,
        status: r.status,
        attempts: attempts
          .filter((a) => a.notification_id === r.id)
          .map((a) => ({ attempt: a.attempt, startedAt: iso(a.started_at)!, latencyMs: a.latency_ms, statusCode: a.status_code, outcome: a.outcome, error: a.error })),
        nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
        createdAt: iso(r.created_at)!,
        deliveredAt: iso(r.delivered_at),
        lastError: r.last_error,
        payload: jsonOf(r.payload),
      }));
    },

    /** Adds to per-minute counts (inside the consumer's transaction). */
    async addCounts(tx: SqlExecutor, rows: Array<{ projectId: string; subject: string; minuteMs: number; value: number }>): Promise<void> {
      for (const r of rows) {
        await tx.query(
          `INSERT INTO alert_counts (project_id, subject, minute, value) VALUES ($1, $2, $3, $4)
           ON CONFLICT (project_id, subject, minute) DO UPDATE SET value = alert_counts.value + EXCLUDED.value`,
          [r.projectId, r.subject.slice(0, 300), new Date(r.minuteMs).toISOString(), r.value],
        );
      }
    },

    /** The sum of a subject's counts from a minute on (inclusive). */
    async windowSum(tx: SqlExecutor, projectId: string, subject: string, fromMinuteMs: number): Promise<number> {
      const [row] = await tx.query<{ v: number | string | null }>('SELECT sum(value) AS v FROM alert_counts WHERE project_id = $1 AND subject = $2 AND minute >= $3', [
        projectId,
        subject.slice(0, 300),
        new Date(fromMinuteMs).toISOString(),
      ]);
      return Number(row?.v ?? 0);
    },

    /** Forgets counts older than any window can reach. */
    async pruneCounts(beforeMs: number): Promise<void> {
      await store.query('DELETE FROM alert_counts WHERE minute < $1', [new Date(beforeMs).toISOString()]);
    },

    async touchLastSeen(tx: SqlExecutor, projectId: string, kind: string, atMs: number): Promise<void> {
      await tx.query(
        `INSERT INTO alert_last_seen (project_id, kind, at) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, kind) DO UPDATE SET at = GREATEST(alert_last_seen.at, EXCLUDED.at)`,
        [projectId, kind, new Date(atMs).toISOString()],
      );
    },

    async lastSeen(projectId: string, kind: string): Promise<number | null> {
      const [row] = await store.query<{ at: Date | string }>('SELECT at FROM alert_last_seen WHERE project_id = $1 AND kind = $2', [projectId, kind]);
      return row ? new Date(row.at).getTime() : null;
    },

    /** The next offset to apply per partition, locked until the transaction ends. */
    async lockPositions(tx: SqlExecutor, topic: string, partitions: number[]): Promise<Map<number, bigint>> {
      const sorted = [...new Set(partitions)].sort((a, b) => a - b);
      for (const p of sorted)
        await tx.query('INSERT INTO alert_consumer_positions (topic, partition, next_offset) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [topic, p]);
      const rows = await tx.query<{ partition: number; next_offset: string | number }>(
        'SELECT partition, next_offset FROM alert_consumer_positions WHERE topic = $1 AND partition = ANY($2::int[]) ORDER BY partition FOR UPDATE',
        [topic, sorted],
      );
      return new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)]));
    },

    async savePositions(tx: SqlExecutor, topic: string, next: Map<number, bigint>): Promise<void> {
      for (const [p, o] of next) await tx.query('UPDATE alert_consumer_positions SET next_offset = $3 WHERE topic = $1 AND partition = $2', [topic, p, o.toString()]);
    },
  };
}

export type AlertsRepo = ReturnType<typeof alertsRepo>;
