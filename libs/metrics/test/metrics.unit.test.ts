import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMetrics, METRICS, refusalReason, REFUSAL_REASONS } from '../src/index.ts';

describe('metric catalog', () => {
  it('names every metric in the Collector manner: devtrail_ prefix, counters in _total, durations in _seconds', () => {
    for (const def of Object.values(METRICS)) {
      expect(def.name).toMatch(/^devtrail_[a-z0-9_]+$/);
      if (def.type === 'counter') expect(def.name).toMatch(/_total$/);
      if (def.type === 'histogram') expect(def.name).toMatch(/_seconds$/);
      // Bounded labels only: nothing that identifies a project, a key, a user or a raw URL.
      for (const label of def.labels) expect(['project', 'project_id', 'key', 'api_key', 'user', 'url', 'path']).not.toContain(label);
    }
  });

  it('is documented: docs/operations.md lists every metric with its labels', () => {
    const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    for (const def of Object.values(METRICS)) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${def.name}\` | ${def.type} |`));
      expect(row, def.name).toBeDefined();
      for (const label of def.labels) expect(row, `${def.name} ${label}`).toContain(`\`${label}\``);
    }
  });

  it('maps each refusal status to one reason of the documented list', () => {
    const cases: Array<[number, string]> = [
      [400, 'invalid'],
      [415, 'invalid'],
      [401, 'unauthorized'],
      [403, 'origin'],
      [413, 'too_large'],
      [429, 'rate_limited'],
      [503, 'unavailable'],
      [500, 'internal'],
    ];
    for (const [status, reason] of cases) expect(refusalReason(status)).toBe(reason);
    expect(new Set(cases.map(([s]) => refusalReason(s)))).toEqual(new Set(REFUSAL_REASONS));
  });

  it('serves the text exposition with every catalog metric, and runs the scrape hooks first', async () => {
    const m = createMetrics({ processMetrics: false });
    let scraped = 0;
    m.onScrape(() => {
      scraped++;
      m.m.produceQueueEvents.set(7);
    });
    m.m.acceptedEvents.inc({ kind: 'log' }, 3);
    const text = await m.text();
    for (const def of Object.values(METRICS)) expect(text).toContain(`# TYPE ${def.name} ${def.type}`);
    expect(text).toContain('devtrail_receiver_accepted_events_total{kind="log"} 3');
    expect(text).toContain('devtrail_receiver_produce_queue_events 7');
    expect(scraped).toBe(1);
    expect(await m.values('acceptedEvents')).toEqual([{ labels: { kind: 'log' }, value: 3 }]);
  });
});
