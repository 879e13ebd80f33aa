import type { ConsumerHooks, FlushTiming, TopicConsumer } from '@devtrail/consumer-kit';
import type { EventKind } from '@devtrail/kinds';
import type { MessageLog } from '@devtrail/message-log';
import { byLabel, type Metrics } from '@devtrail/metrics';

// The sinks' outcomes as Prometheus metrics (docs/operations.md#metrics), through the consumer
// kit's hooks; lag, stall and buffer as gauges read at scrape time. The JSON view of /metrics
// and the dashboard's ingestion page read the same counters (consumerMetrics).

/** Flushes each sink keeps for the JSON view (recentFlushes): a minute of them at a second each, and then some. */
export const RECENT_FLUSHES = 300;
// A sink's last flushes, by registry and consumer name (the registry is the process's).
const flushesOf = new WeakMap<Metrics, Map<string, FlushTiming[]>>();

/** The kit's hooks of one sink, counting into the process's registry. */
export function sinkHooks(metrics: Metrics, consumer: string, kind: EventKind): ConsumerHooks {
  const { storedEvents, deadLetteredEvents, discardedEvents, writeRetries, ingestToVisible } = metrics.m;
  let sinks = flushesOf.get(metrics);
  if (!sinks) flushesOf.set(metrics, (sinks = new Map()));
  const recent: FlushTiming[] = [];
  sinks.set(consumer, recent);
  return {
    // Where the time between Kafka and a readable row goes (bench/load-run.ts): bounded, the oldest out first.
    flushed: (t) => {
      if (recent.push(t) > RECENT_FLUSHES) recent.shift();
    },
    stored: (count) => storedEvents.inc({ consumer, kind }, count),
    deadLettered: (reason, count) => deadLetteredEvents.inc({ consumer, kind, reason }, count),
    discarded: (count) => discardedEvents.inc({ consumer, kind }, count),
    retried: (cause) => writeRetries.inc({ consumer, kind, cause }),
    visible: (appendTimes) => {
      const now = Date.now();
      for (const t of appendTimes) ingestToVisible.observe({ kind }, Math.max(0, now - t) / 1000);
    },
  };
}

/** Lag per group and partition, and each sink's stall and buffer, refreshed on every scrape. */
export function watchSinks(metrics: Metrics, messageLog: MessageLog, sinks: Array<{ kind: EventKind; consumer: TopicConsumer }>): void {
  const { consumerLag, stalledSeconds, bufferedEvents } = metrics.m;
  metrics.onScrape(async () => {
    consumerLag.reset();
    const now = Date.now();
    for (const { kind, consumer } of sinks) {
      const s = consumer.stats();
      const labels = { consumer: s.name, kind };
      stalledSeconds.set(labels, s.stalledSince ? (now - Date.parse(s.stalledSince)) / 1000 : 0);
      bufferedEvents.set(labels, s.buffered);
      // The log unreachable: no lag series this scrape (an absent series, not a false 0).
      const parts = await messageLog.lag(s.group, [s.topic]).catch(() => []);
      for (const p of parts) consumerLag.set({ group: s.group, topic: p.topic, partition: p.partition }, p.lag);
    }
  });
}

/**
 * Each consumer's figures as JSON, for /metrics (Accept: application/json) and the ingestion
 * page: written, dead-lettered and retries from the Prometheus counters (when the process has
 * them), the rest from the consumer itself.
 */
export async function consumerMetrics(consumers: TopicConsumer[], metrics?: Metrics) {
  const [stored, dead, retries] = metrics
    ? await Promise.all([metrics.values('storedEvents'), metrics.values('deadLetteredEvents'), metrics.values('writeRetries')]).then((v) =>
        v.map((series) => byLabel(series, 'consumer')),
      )
    : [undefined, undefined, undefined];
  return Promise.all(
    consumers.map(async (c) => {
      const s = c.stats();
      return {
        ...s,
        ...(stored && { written: stored[s.name] ?? s.written, deadLettered: dead![s.name] ?? s.deadLettered, retries: retries![s.name] ?? s.retries }),
        lag: await c.lag().catch(() => null),
        recentFlushes: (metrics && flushesOf.get(metrics)?.get(s.name)) ?? [],
      };
    }),
  );
}
