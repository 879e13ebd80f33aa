import { ALERT_PENDING_CHANNEL, type AlertsRepo, type Attempt, type DueNotification, type RelationalStore } from '@devtrail/relational-store';
import type { AlertMessage } from './alert-message.ts';
import { slackBody, webhookBody } from './format.ts';
import { postJson, type SendLimits, type SendResult } from './safe-request.ts';
import { DELIVERY_HEADER, signatureHeader } from './signature.ts';

// Delivers the outbox (alert_notifications) at least once: a deliverer takes due
// notifications under a lease, sends each, records the attempt, and either marks it
// delivered, schedules a retry with exponential backoff, or gives up (a refusal that
// retrying cannot change, or the last attempt). A crash mid-send leaves the notification
// pending: once its lease runs out it is sent again with the same delivery id (the
// X-Devtrail-Delivery header and the body's "id"), which a receiver de-duplicates by.

export interface DeliveryOptions {
  limits: SendLimits;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
}

/** Delivery options from the parsed settings (libs/config's `alerts`). */
export function deliveryOptionsOf(a: {
  webhookTimeoutMs: number;
  maxResponseBytes: number;
  allowPrivateAddresses: boolean;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
}): DeliveryOptions {
  return {
    limits: { timeoutMs: a.webhookTimeoutMs, maxResponseBytes: a.maxResponseBytes, allowPrivateAddresses: a.allowPrivateAddresses },
    retryBaseMs: a.retryBaseMs,
    retryMaxMs: a.retryMaxMs,
    maxAttempts: a.maxAttempts,
  };
}

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Whether trying again later can help: no answer, a timeout, 408, 425, 429 or a 5xx. */
export function isRetryableResult(r: SendResult): boolean {
  if (r.outcome === 'timeout' || r.outcome === 'network') return true;
  if (r.outcome !== 'http_error' || r.statusCode === null) return false;
  return r.statusCode === 408 || r.statusCode === 425 || r.statusCode === 429 || r.statusCode >= 500;
}

/** The wait before attempt `attempt + 1`: base x 2^(attempt-1), capped, +-20 % jitter. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 20));
  return Math.round(ceiling * (0.8 + Math.random() * 0.4));
}

/** The lease a deliverer holds while it sends: the longest send, and a margin. */
export const leaseMsFor = (o: DeliveryOptions) => o.limits.timeoutMs + 5000;

/** Sends one notification once and records what happened. */
export async function deliverOnce(repo: AlertsRepo, n: DueNotification, o: DeliveryOptions): Promise<Attempt & { delivered: boolean; willRetry: boolean }> {
  const message = n.payload as unknown as AlertMessage;
  const body = n.destination.type === 'slack' ? slackBody(n.id, message) : webhookBody(n.id, message);
  const headers: Record<string, string> = { [DELIVERY_HEADER]: n.id };
  if (n.destination.type === 'webhook' && n.destination.secret) headers['x-devtrail-signature'] = signatureHeader(n.destination.secret, body);
  const startedAt = new Date().toISOString();
  const r = await postJson(n.destination.url, body, headers, o.limits);
  const delivered = r.outcome === 'ok';
  const willRetry = !delivered && isRetryableResult(r) && n.attempts < o.maxAttempts;
  const attempt: Attempt = {
    attempt: n.attempts,
    startedAt,
    latencyMs: r.latencyMs,
    statusCode: r.statusCode,
    outcome: r.outcome,
    error: r.error ? `${r.error}${r.responseSnippet ? `: ${r.responseSnippet.slice(0, 200)}` : ''}` : null,
  };
  await repo.recordAttempt(
    n.id,
    attempt,
    delivered ? { delivered: true } : { delivered: false, retryAtMs: willRetry ? Date.now() + retryDelayMs(n.attempts, o.retryBaseMs, o.retryMaxMs) : null },
  );
  return { ...attempt, delivered, willRetry };
}

export interface Deliverer {
  start(): Promise<void>;
  /** Stops taking work and waits (bounded) for sends in flight. */
  stop(): Promise<void>;
  /** Looks for due notifications now. */
  wake(): void;
  stats(): { delivered: number; retried: number; failed: number; inFlight: number };
}

/** Sends in flight at once per deliverer, by default: each to another destination. */
export const DEFAULT_DELIVERY_CONCURRENCY = 32;

/**
 * A pool of sends: up to `concurrency` at once, each to a different destination (the outbox
 * hands out one notification per destination at a time, alertsRepo.claimDue). A slot is refilled
 * the moment its send ends, so a destination that never answers holds one slot for at most the
 * send timeout and delays only its own notifications (docs/alerts.md, "Delivery").
 */
export function createDeliverer(opts: {
  repo: AlertsRepo;
  relational: RelationalStore;
  delivery: DeliveryOptions;
  logger: Logger;
  pollMs?: number;
  concurrency?: number;
}): Deliverer {
  const pollMs = opts.pollMs ?? 1000;
  const concurrency = opts.concurrency ?? DEFAULT_DELIVERY_CONCURRENCY;
  const stats = { delivered: 0, retried: 0, failed: 0, inFlight: 0 };
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let unlisten: (() => Promise<void>) | undefined;
  let wakeUp: (() => void) | undefined;
  // A wake that came while the loop was busy (claiming): the next sleep returns at once.
  let woken = false;
  let loop: Promise<void> = Promise.resolve();

  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const t = setTimeout(() => {
        wakeUp = undefined;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(t);
        wakeUp = undefined;
        resolve();
      };
    });

  async function send(n: DueNotification) {
    stats.inFlight++;
    try {
      const a = await deliverOnce(opts.repo, n, opts.delivery);
      if (a.delivered) stats.delivered++;
      else if (a.willRetry) stats.retried++;
      else stats.failed++;
      const line = { notification: n.id, rule: n.ruleId, attempt: a.attempt, status: a.statusCode, outcome: a.outcome, latencyMs: a.latencyMs };
      if (a.delivered) opts.logger.info(line, 'alert delivered');
      else opts.logger.warn({ ...line, retry: a.willRetry }, 'alert delivery failed');
    } catch (err) {
      // The attempt could not be recorded (PostgreSQL out): the lease runs out and it is sent again.
      opts.logger.warn({ notification: n.id, err: (err as Error).message }, 'alert delivery not recorded; it will be retried');
    } finally {
      stats.inFlight--;
    }
  }

  function dispatch(n: DueNotification) {
    const p = send(n).finally(() => {
      inFlight.delete(p);
      wake(); // a slot is free, and the destination may have more waiting
    });
    inFlight.add(p);
  }

  async function run() {
    while (running) {
      woken = false;
      const free = concurrency - inFlight.size;
      let due: DueNotification[] = [];
      if (free > 0) {
        try {
          due = await opts.repo.claimDue(free, leaseMsFor(opts.delivery));
        } catch (err) {
          opts.logger.warn({ err: (err as Error).message }, 'alert outbox not readable; retrying');
        }
      }
      for (const n of due) dispatch(n);
      if (due.length > 0 && due.length === free) continue; // there may be more: claim as slots free up
      // Until a send ends, a new notification is queued (NOTIFY) or the next retry is due (a
      // backoff is kept to the millisecond), at most pollMs. "Due now" while nothing could be
      // claimed means its destination is busy: its send's end wakes the loop.
      const next = due.length > 0 ? null : await opts.repo.nextDueInMs().catch(() => null);
      await sleep(next === null || next === 0 ? pollMs : Math.max(10, Math.min(pollMs, next)));
    }
  }

  return {
    async start() {
      running = true;
      unlisten = await opts.relational.listen(ALERT_PENDING_CHANNEL, wake).catch(() => undefined);
      loop = run();
    },
    async stop() {
      if (!running) return;
      running = false;
      wake();
      const bounded = new Promise((r) => setTimeout(r, opts.delivery.limits.timeoutMs + 1000));
      await Promise.race([Promise.all([loop, ...inFlight]), bounded]);
      await unlisten?.().catch(() => {});
    },
    wake,
    stats: () => ({ ...stats }),
  };
}
