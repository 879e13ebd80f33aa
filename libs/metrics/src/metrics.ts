import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRICS, type MetricDef, type MetricKey } from './catalog.ts';

// One registry per process (the embedded process has one for all its stages), every metric of
// the catalog in it, and the process metrics. Gauges of what other parts know (lag, queue
// depth, a stall) are refreshed by scrape hooks just before each scrape.

type Built<D extends MetricDef> = D['type'] extends 'counter' ? Counter<string> : D['type'] extends 'gauge' ? Gauge<string> : Histogram<string>;
export type MetricSet = { [K in MetricKey]: Built<(typeof METRICS)[K]> };
export type Labels = Record<string, string | number>;

export interface Metrics {
  readonly registry: Registry;
  /** Every metric of the catalog, by key. */
  readonly m: MetricSet;
  /** Runs before every scrape (text or JSON): sets the gauges whose values live elsewhere. */
  onScrape(hook: () => void | Promise<void>): void;
  /** The Prometheus text exposition of everything. */
  text(): Promise<string>;
  readonly contentType: string;
  /** One metric's series as they stand (the scrape hooks do not run: meant for counters), for the JSON views. */
  values(key: MetricKey): Promise<Array<{ labels: Labels; value: number }>>;
}

export interface MetricsOptions {
  /** process_* and nodejs_* (prom-client's defaults); off in tests that make many registries. */
  processMetrics?: boolean;
}

export function createMetrics(opts: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const hooks: Array<() => void | Promise<void>> = [];
  const m = {} as Record<MetricKey, Counter<string> | Gauge<string> | Histogram<string>>;
  for (const [key, def] of Object.entries(METRICS) as Array<[MetricKey, MetricDef]>) {
    const base = { name: def.name, help: def.help, labelNames: [...def.labels], registers: [registry] };
    m[key] = def.type === 'counter' ? new Counter(base) : def.type === 'gauge' ? new Gauge(base) : new Histogram({ ...base, buckets: [...(def.buckets ?? [])] });
  }
  if (opts.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const refresh = async () => {
    for (const hook of hooks) await hook();
  };
  return {
    registry,
    m: m as MetricSet,
    onScrape: (hook) => void hooks.push(hook),
    async text() {
      await refresh();
      return registry.metrics();
    },
    contentType: registry.contentType,
    async values(key) {
      const got = await (m[key] as Counter<string>).get();
      return got.values.map((v) => ({ labels: v.labels as Labels, value: v.value }));
    },
  };
}

/** Sums a metric's series into an object keyed by one label (the JSON views' shape). */
export function byLabel(series: Array<{ labels: Labels; value: number }>, label: string, keys: readonly string[] = []): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const s of series) {
    const k = String(s.labels[label] ?? '');
    out[k] = (out[k] ?? 0) + s.value;
  }
  return out;
}
