import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ColumnStoreError,
  countLogs,
  migrateColumnStore,
  readErrorGroups,
  readErrors,
  readLlmUsage,
  readLogs,
  readTrace,
  TABLE_OF,
  toRow,
  type ColumnStore,
} from '../src/index.ts';
import { sampleEnvelopes } from './fixtures.ts';
import { COLUMN, llmToEvent, llmUsageSchema, logBatchSchema, logsToEvents, newEnvelope, parseJsonBody, spanSchema, spanToEvent } from '@devtrail/contract';

async function insertAll(store: ColumnStore, envs: ReturnType<typeof sampleEnvelopes>) {
  for (const kind of ['log', 'error', 'span', 'llm'] as const) {
    await store.insert(TABLE_OF[kind], envs.filter((e) => e.kind === kind).map(toRow));
  }
}

/** What the pipeline relies on from a column store; both implementations must pass. */
export function columnStoreContract(name: string, open: () => Promise<{ store: ColumnStore; cleanup: () => Promise<void> }>) {
  describe(`column store contract: ${name}`, () => {
    let store: ColumnStore;
    let cleanup: () => Promise<void>;
    const project = randomUUID();
    let envs: ReturnType<typeof sampleEnvelopes>;

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await migrateColumnStore(store, { retentionDays: 30 });
      envs = sampleEnvelopes(project, 5);
      await insertAll(store, envs);
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it('holds the extremes the receiver accepts (contract store-domain.ts), unchanged', async () => {
      const p = randomUUID();
      const now = new Date().toISOString();
      const edgeText = `nul\u0000 rtl \u202eabc ${parseJsonBody('"cut \\ud83d"')} ${'x'.repeat(100_000)}`;
      const times = [COLUMN.time.minMs, COLUMN.time.maxMs].map((ms) => new Date(ms).toISOString());
      const batch = logBatchSchema.parse({ logs: times.map((timestamp) => ({ level: 'info', message: edgeText, timestamp, metadata: { [edgeText.slice(0, 20)]: 1e308 } })) });
      const span = spanSchema.parse({ trace_id: 'edge', span_id: 's', operation: 'o', start_time: times[1], duration_ms: COLUMN.count.max });
      const llm = llmUsageSchema.parse({ model: edgeText.slice(0, 30), provider: 'p', operation: 'o', input_tokens: COLUMN.count.max, output_tokens: 0, latency_ms: COLUMN.count.max, cost_usd: -1e308 });
      await store.insert(TABLE_OF.log, logsToEvents(batch, now).map((d) => toRow(newEnvelope('log', p, now, d))));
      await store.insert(TABLE_OF.span, [toRow(newEnvelope('span', p, now, spanToEvent(span)))]);
      await store.insert(TABLE_OF.llm, [toRow(newEnvelope('llm', p, now, llmToEvent(llm, now)))]);

      const { logs } = await readLogs(store, { projectId: p, range: { fromMs: COLUMN.time.minMs, toMs: COLUMN.time.maxMs } });
      expect(logs.map((l) => l.timestamp).sort()).toEqual([...times].sort());
      for (const l of logs) {
        expect(l.message).toBe(edgeText);
        expect(l.metadata).toEqual({ [edgeText.slice(0, 20)]: 1e308 });
      }
      const [stored] = await readTrace(store, p, 'edge');
      expect(stored.duration_ms).toBe(COLUMN.count.max);
      expect(stored.start_time).toBe(times[1]);
      const [usage] = await readLlmUsage(store, { projectId: p });
      expect(usage).toMatchObject({ model: edgeText.slice(0, 30), input_tokens: COLUMN.count.max, cost_usd: -1e308, latency_p50_ms: COLUMN.count.max });
    });

    it('migrations are idempotent', async () => {
      expect(await migrateColumnStore(store, { retentionDays: 30 })).toEqual([]);
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('reads logs back with every field intact, newest first', async () => {
      const { logs } = await readLogs(store, { projectId: project });
      expect(logs).toHaveLength(5);
      const sent = envs.filter((e) => e.kind === 'log').map((e) => e.data as Record<string, unknown>);
      const first = logs[0];
      const src = sent.find((s) => s.span_id === first.span_id)!;
      expect(first).toMatchObject({
        level: src.level,
        message: src.message,
        timestamp: src.timestamp,
        metadata: src.metadata,
        trace_id: 'trace-1',
        request_id: src.request_id,
        context: 'ctx',
        service: 'api',
        environment: 'staging',
        release: 'v1',
      });
      expect(logs.map((l) => l.timestamp)).toEqual([...logs.map((l) => l.timestamp)].sort().reverse());
    });

    it('filters and paginates with parameters, never SQL text', async () => {
      expect((await readLogs(store, { projectId: project, levels: ['error'] })).logs).toHaveLength(2);
      expect((await readLogs(store, { projectId: project, text: 'HELLO 3' })).logs).toHaveLength(1);
      expect((await readLogs(store, { projectId: project, text: "x' OR 1=1 --" })).logs).toHaveLength(0);
      expect((await readLogs(store, { projectId: "' OR ''='" })).logs).toHaveLength(0);
      const p1 = await readLogs(store, { projectId: project, limit: 2 });
      const p2 = await readLogs(store, { projectId: project, limit: 2, cursor: p1.nextCursor! });
      const p3 = await readLogs(store, { projectId: project, limit: 2, cursor: p2.nextCursor! });
      const ids = [...p1.logs, ...p2.logs, ...p3.logs].map((l) => l.event_id);
      expect(new Set(ids).size).toBe(5);
      expect(p3.nextCursor).toBeNull();
    });

    it('never double-counts a replayed batch', async () => {
      await insertAll(store, envs);
      expect(await countLogs(store, project)).toBe(5);
      const groups = await readErrorGroups(store, { projectId: project });
      expect(groups).toHaveLength(1);
      expect(groups[0].count).toBe(2);
      expect((await readErrors(store, { projectId: project })).errors).toHaveLength(2);
      const [usage] = await readLlmUsage(store, { projectId: project });
      expect(usage).toMatchObject({ calls: 1, input_tokens: 10, output_tokens: 5, cost_usd: 0.25, model: 'gpt-x' });
      expect(await readTrace(store, project, 'trace-1')).toHaveLength(1);
    });

    it('groups errors with first and last seen', async () => {
      const [g] = await readErrorGroups(store, { projectId: project });
      const errs = envs.filter((e) => e.kind === 'error');
      expect(g.fingerprint).toBe((errs[0].data as { fingerprint: string }).fingerprint);
      expect(g.max_severity).toBe('high');
      expect(Date.parse(g.first_seen)).toBeLessThanOrEqual(Date.parse(g.last_seen));
    });

    it('classifies a row that can never be written as permanent', async () => {
      const err = await store.insert('logs', [{ event_id: 'not-a-uuid', timestamp: 'never' }]).catch((e) => e);
      expect(err).toBeInstanceOf(ColumnStoreError);
      expect(err.retryable, err.message).toBe(false);
    });

    it('reports an unknown table as an error', async () => {
      await expect(store.query('SELECT * FROM no_such_table')).rejects.toBeInstanceOf(ColumnStoreError);
    });
  });
}
