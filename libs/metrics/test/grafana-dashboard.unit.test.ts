import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics, METRICS } from '../src/index.ts';

// deploy/grafana/devtrail.json queries only what devtrail exports: every metric name in every
// panel's PromQL is one a devtrail process serves (the catalog's, with a histogram's _bucket,
// _sum and _count, and the process metrics), so a renamed metric cannot leave a panel empty.
const dashboard = JSON.parse(readFileSync(new URL('../../../deploy/grafana/devtrail.json', import.meta.url), 'utf8'));
const METRIC_NAME = /\b(?:devtrail|process|nodejs)_[a-zA-Z0-9_:]*/g;

function queries(panels: any[]): Array<{ panel: string; expr: string }> {
  return panels.flatMap((p) => [...(p.targets ?? []).map((t: { expr: string }) => ({ panel: p.title, expr: t.expr })), ...queries(p.panels ?? [])]);
}

async function exportedNames(): Promise<Set<string>> {
  const m = createMetrics();
  const names = new Set<string>();
  for (const metric of await m.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(metric.name + suffix);
  }
  m.registry.clear();
  return names;
}

describe('Grafana dashboard', () => {
  const all = queries(dashboard.panels);

  it('has queries, each naming at least one metric', () => {
    expect(all.length).toBeGreaterThan(20);
    for (const q of all) expect(q.expr.match(METRIC_NAME), `${q.panel}: ${q.expr}`).not.toBeNull();
  });

  it('names only metrics devtrail exports', async () => {
    const exported = await exportedNames();
    const unknown = all.flatMap((q) => (q.expr.match(METRIC_NAME) ?? []).filter((n) => !exported.has(n)).map((n) => `${q.panel}: ${n}`));
    expect(unknown).toEqual([]);
  });

  it('shows outcomes per kind, lag, visibility and latency', () => {
    const used = new Set(all.flatMap((q) => q.expr.match(METRIC_NAME) ?? []));
    for (const key of ['acceptedEvents', 'refusedRequests', 'storedEvents', 'deadLetteredEvents', 'consumerLag', 'stalledSeconds'] as const) {
      expect(used, key).toContain(METRICS[key].name);
    }
    for (const key of ['ingestToVisible', 'httpRequestDuration', 'kafkaProduceDuration', 'clickhouseInsertDuration'] as const) {
      expect(used, key).toContain(`${METRICS[key].name}_bucket`);
    }
  });
});
