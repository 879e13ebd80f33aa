import { createDeliverer, deliveryOptionsOf, type Deliverer } from '@devtrail/alerting';
import type { ColumnStore } from '@devtrail/column-store';
import { PRICE_EDITS_REFRESH_MS, withEdits, type Config, type Logger } from '@devtrail/config';
import { createTopicConsumer, type ConsumerStats, type TopicConsumer } from '@devtrail/consumer-kit';
import type { Topics } from '@devtrail/contract';
import { EVENT_KINDS, KINDS, type EventKind } from '@devtrail/kinds';
import type { MessageLog } from '@devtrail/message-log';
import { alertsRepo, keepPriceEdits, type PriceEditsKeeper, type RelationalStore } from '@devtrail/relational-store';
import { applyBatch } from './apply-batch.ts';
import { runChecks } from './periodic-checks.ts';
import { createRuleCache } from './rule-cache.ts';
import { alertsDecoder, type StreamItem } from './stream-item.ts';

// THE ALERTS CONSUMER (docs/alerts.md; docs/topics.md walks through it as the example of
// a consumer of devtrail's topics). One consumer group per kind (`<prefix>alerts-<name>`),
// each written with the consumer kit:
//   decode   skip on headers what no rule needs; keep each event's partition and offset
//   write    one PostgreSQL transaction per batch: triage, counts, fired rules into the
//            outbox, and the positions applied (apply-batch.ts)
//   commit   the kit commits Kafka offsets only after write resolved
// Beside them: a timer for the rules no event triggers and the one that reads the column store
// (periodic-checks.ts), and the deliverer that empties the outbox (libs/alerting deliverer.ts).

/** The CONSUMERS entry that runs it. */
export const ALERTS_CONSUMER = 'alerts';

export interface AlertsOptions {
  messageLog: MessageLog;
  topics: Topics;
  relational: RelationalStore;
  /** Read by the crash_free_rate rule (periodic-checks.ts). */
  columnStore: ColumnStore;
  groupPrefix: string;
  logger: Logger;
  alerts: Config['alerts'];
  llmPrices: Config['llmPrices'];
  publicUrl: string | undefined;
  retryMaxMs: number;
}

export interface AlertsService {
  start(): Promise<void>;
  /** Stops reading, applies what is buffered, stops the timer and the deliverer. */
  stop(): Promise<void>;
  /** Its topic consumers (for metrics and lag). */
  consumers: TopicConsumer[];
  deliverer: Deliverer;
  stats(): ConsumerStats[];
}

export const alertsGroupId = (prefix: string, kind: EventKind) => `${prefix}alerts-${KINDS[kind].name}`;

export function createAlerts(o: AlertsOptions): AlertsService {
  const repo = alertsRepo(o.relational);
  const rules = createRuleCache(repo, o.relational, o.logger);
  const deliverer = createDeliverer({ repo, relational: o.relational, delivery: deliveryOptionsOf(o.alerts), logger: o.logger });
  const byKind = new Map<EventKind, TopicConsumer>();
  for (const kind of EVENT_KINDS) {
    const topic = o.topics.of(kind);
    byKind.set(
      kind,
      createTopicConsumer<StreamItem>({
        name: `alerts-${KINDS[kind].name}`,
        groupId: alertsGroupId(o.groupPrefix, kind),
        messageLog: o.messageLog,
        topic,
        deadLetterTopic: o.topics.deadLetterOf(kind), // never written: the sinks dead-letter, this consumer skips
        redriveTopic: null,
        createTopics: false,
        decode: alertsDecoder(kind, rules, o.logger),
        async write(items) {
          const queued = await applyBatch({ relational: o.relational, repo, rules, topic, llmPrices: o.llmPrices, publicUrl: o.publicUrl }, kind, items);
          if (queued > 0) deliverer.wake();
        },
        batchMs: o.alerts.batchMs,
        batchRows: 5000,
        retryMaxMs: o.retryMaxMs,
        logger: o.logger,
      }),
    );
  }
  const consumers = [...byKind.values()];
  const sinkLag = async () => {
    let total = 0;
    for (const kind of EVENT_KINDS) {
      const lags = await o.messageLog.lag(`${o.groupPrefix}${KINDS[kind].name}-sink`, [o.topics.of(kind)]);
      total += lags.reduce((n, p) => n + p.lag, 0);
    }
    return total;
  };
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<unknown> = Promise.resolve();
  const check = () => {
    checking = runChecks({ relational: o.relational, columnStore: o.columnStore, repo, rules, publicUrl: o.publicUrl, ownLag: (k) => byKind.get(k)!.lag(), sinkLag })
      .then((queued) => {
        if (queued > 0) deliverer.wake();
      })
      .catch((err) => o.logger.warn({ err: (err as Error).message }, 'alert checks failed; next time'));
  };
  let pruned = 0;
  let prices: PriceEditsKeeper | undefined;

  return {
    consumers,
    deliverer,
    async start() {
      // The llm_cost rule prices calls as the reads do: with the operator's edits (docs/otlp.md#llm-cost).
      prices = await keepPriceEdits(o.relational, (edits) => withEdits(o.llmPrices, edits), {
        intervalMs: PRICE_EDITS_REFRESH_MS,
        onError: (err) => o.logger.warn({ err: (err as Error).message }, 'reading the LLM price edits failed; next time'),
      });
      await rules.start();
      for (const c of consumers) await c.start();
      await deliverer.start();
      timer = setInterval(() => {
        check();
        if (Date.now() - pruned > 3_600_000) {
          pruned = Date.now();
          repo.pruneCounts(Date.now() - 25 * 3_600_000).catch(() => {});
        }
      }, o.alerts.checkIntervalMs);
    },
    async stop() {
      clearInterval(timer);
      await checking;
      await Promise.all(consumers.map((c) => c.stop()));
      await deliverer.stop();
      await rules.stop();
      prices?.stop();
    },
    stats: () => consumers.map((c) => c.stats()),
  };
}
