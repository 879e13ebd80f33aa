import { countLogs } from '../../../test/support/stored-counts.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketsOf, ColumnStoreError, migrateColumnStore, perRowRetentionStep, type ColumnStore, type ReadLimits, type TableDef } from '@devtrail/column-store';
import { LOG_SEARCH, parseSearch, readErrorActivity, readErrorGroups, readErrors, readLlmUsage, readLogs, readTrace } from '@devtrail/kinds';
import { toRow } from '../../../test/support/envelopes.ts';
import { sampleEnvelopes } from './fixtures.ts';
import { COLUMN, TIMESTAMP_EXTREMES } from '@devtrail/column-store/store-domain';
import { errorToEvent, KIND_TABLES, KINDS, llmToEvent, llmUsageSchema, logBatchSchema, logsToEvents, spanSchema, spanToEvent } from '@devtrail/kinds';
import { newEnvelope } from '../../../test/support/envelopes.ts';
import { parseJsonBody } from '@devtrail/http';
import { readLimitsContract } from './read-limits.contract.ts';

/** The read limits the contract opens each store with: small enough to reach, large enough for its other reads. */
export const CONTRACT_READS: ReadLimits = { maxExecutionMs: 2000, maxRowsToRead: 2_000_000, maxBytesToRead: 1_000_000_000 };

async function insertAll(store: ColumnStore, envs: ReturnType<typeof sampleEnvelopes>) {
  for (const kind of ['log', 'error', 'span', 'llm'] as const) {
    await store.insert(KINDS[kind].name, envs.filter((e) => e.kind === kind).map(toRow));
  }
}

/** What the pipeline relies on from a column store; both implementations must pass. */
export function columnStoreContract(name: string, open: (reads: ReadLimits) => Promise<{ store: ColumnStore; cleanup: () => Promise<void> }>) {
  describe(`column store contract: ${name}`, () => {
    let store: ColumnStore;
    let cleanup: () => Promise<void>;
    const project = randomUUID();
    let envs: ReturnType<typeof sampleEnvelopes>;

    beforeAll(async () => {
      ({ store, cleanup } = await open(CONTRACT_READS));
      await migrateColumnStore(store, KIND_TABLES, { retentionDays: 30 });
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
      // The earliest and latest instants the receiver accepts (contract store-domain.ts), as it stores them.
      const times = TIMESTAMP_EXTREMES.map((ts) => new Date(ts).toISOString()); // as stored: UTC
      const batch = logBatchSchema.parse({
        logs: TIMESTAMP_EXTREMES.map((timestamp) => ({ level: 'info', message: edgeText, timestamp, metadata: { [edgeText.slice(0, 20)]: 1e308 } })),
      });
      const span = spanSchema.parse({ trace_id: 'edge', span_id: 's', operation: 'o', start_time: TIMESTAMP_EXTREMES[1], duration_ms: COLUMN.count.max });
      const llm = llmUsageSchema.parse({
        model: edgeText.slice(0, 30),
        provider: 'p',
        operation: 'o',
        input_tokens: COLUMN.count.max,
        output_tokens: 0,
        latency_ms: COLUMN.count.max,
        cost_usd: -1e308,
      });
      await store.insert(
        KINDS.log.name,
        logsToEvents(batch, now).map((d) => toRow(newEnvelope('log', p, now, d))),
      );
      await store.insert(KINDS.span.name, [toRow(newEnvelope('span', p, now, spanToEvent(span)))]);
      await store.insert(KINDS.llm.name, [toRow(newEnvelope('llm', p, now, llmToEvent(llm, now)))]);

      const { logs } = await readLogs(store, { projectId: p, retentionDays: 30, range: { fromMs: COLUMN.time.minMs, toMs: COLUMN.time.maxMs } });
      expect(logs.map((l) => l.timestamp).sort()).toEqual([...times].sort());
      for (const l of logs) {
        expect(l.message).toBe(edgeText);
        expect(l.metadata).toEqual({ [edgeText.slice(0, 20)]: 1e308 });
      }
      const [stored] = await readTrace(store, p, 'edge', 30);
      expect(stored.duration_ms).toBe(COLUMN.count.max);
      expect(stored.start_time).toBe(times[1]);
      const [usage] = await readLlmUsage(store, { projectId: p, retentionDays: 30 });
      expect(usage).toMatchObject({ model: edgeText.slice(0, 30), input_tokens: COLUMN.count.max, cost_usd: -1e308, latency_p50_ms: COLUMN.count.max });
    });

    it('migrations are idempotent', async () => {
      expect(await migrateColumnStore(store, KIND_TABLES, { retentionDays: 30 })).toEqual([]);
    });

    it('migrates to what the tables declare: renames a table of a former name, adds the columns and indexes it lacks, keeps its rows', async () => {
      const suffix = randomUUID().slice(0, 8);
      const [before, after] = [`m_old_${suffix}`, `m_new_${suffix}`];
      await store.command(`CREATE TABLE ${before} (id UInt32, at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id`);
      await store.insert(before, [{ id: 1, at: '2026-01-01 00:00:00.000' }]);
      const table: TableDef = {
        name: after,
        formerly: [before],
        columns: [
          { name: 'id', sql: 'UInt32' },
          { name: 'at', sql: "DateTime64(3, 'UTC')" },
          { name: 'note', sql: 'String' },
        ],
        indexes: ['idx_note note TYPE bloom_filter(0.01) GRANULARITY 4'],
        engine: 'MergeTree',
        partitionBy: 'toYYYYMM(at)',
        orderBy: 'id',
        ttlColumn: 'at',
        timeColumn: 'at',
        steps: [perRowRetentionStep('at')],
      };
      expect(await migrateColumnStore(store, [table], { retentionDays: 30 })).toEqual([
        `renamed ${before} to ${after}`,
        `added column ${after}.note`,
        `added column ${after}.retention_days`,
        `added index ${after}.idx_note`,
        `applied ${after}: ttl-per-row-retention`,
      ]);
      // The row written before keeps the deployment's retention; the TTL now reads it per row.
      expect(await store.query(`SELECT id, note, retention_days FROM ${after}`)).toEqual([{ id: 1, note: '', retention_days: 30 }]);
      const [{ ddl }] = await store.query<{ ddl: string }>(
        `SELECT create_table_query AS ddl FROM system.tables WHERE database = currentDatabase() AND name = {t:String}`,
        {
          t: after,
        },
      );
      expect(ddl).toContain('TTL toDateTime(at) + toIntervalDay(retention_days)');
      expect(await migrateColumnStore(store, [table], { retentionDays: 30 })).toEqual([]);
      await store.command(`DROP TABLE ${after}`);
    });

    it('writes the same rows from their cells (insertCells) as from row objects (insert), every kind, the extremes included', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const now = new Date().toISOString();
      const edge = logBatchSchema.parse({
        logs: TIMESTAMP_EXTREMES.map((timestamp) => ({
          level: 'warn',
          message: `nul\u0000 "quoted" \\ ${'x'.repeat(1000)}`,
          timestamp,
          metadata: { big: 1e308, list: [1, 'a'] },
        })),
      });
      const extra = logsToEvents(edge, now).map((d) => newEnvelope('log', a, now, d));
      const base = [...sampleEnvelopes(a, 4), ...extra];
      for (const kind of ['log', 'error', 'span', 'llm'] as const) {
        const k = KINDS[kind];
        const mine = base.filter((e) => e.kind === kind);
        await store.insert(k.name, mine.map(toRow));
        await store.insertCells(
          k.name,
          k.cellColumns,
          mine.map((e) => k.toCells({ ...e, project_id: b } as never, 30)),
        );
        const read = (p: string) => store.query(`SELECT * EXCEPT project_id FROM ${k.name} WHERE project_id = {p:String} ORDER BY event_id`, { p });
        const [fromRows, fromCells] = [await read(a), await read(b)];
        expect(fromCells.length, kind).toBe(mine.length);
        expect(fromCells, kind).toEqual(fromRows);
      }
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('reads logs back with every field intact, newest first', async () => {
      const { logs } = await readLogs(store, { projectId: project, retentionDays: 30 });
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
      expect((await readLogs(store, { projectId: project, retentionDays: 30, levels: ['error'] })).logs).toHaveLength(2);
      expect((await readLogs(store, { projectId: project, retentionDays: 30, search: parseSearch('"HELLO 3"', LOG_SEARCH) })).logs).toHaveLength(1);
      expect((await readLogs(store, { projectId: project, retentionDays: 30, search: parseSearch(`"x' OR 1=1 --"`, LOG_SEARCH) })).logs).toHaveLength(0);
      expect((await readLogs(store, { projectId: "' OR ''='", retentionDays: 30 })).logs).toHaveLength(0);
      const p1 = await readLogs(store, { projectId: project, retentionDays: 30, limit: 2 });
      const p2 = await readLogs(store, { projectId: project, retentionDays: 30, limit: 2, cursor: p1.nextCursor! });
      const p3 = await readLogs(store, { projectId: project, retentionDays: 30, limit: 2, cursor: p2.nextCursor! });
      const ids = [...p1.logs, ...p2.logs, ...p3.logs].map((l) => l.event_id);
      expect(new Set(ids).size).toBe(5);
      expect(p3.nextCursor).toBeNull();
    });

    it('never double-counts a replayed batch', async () => {
      await insertAll(store, envs);
      expect(await countLogs(store, project)).toBe(5);
      const groups = await readErrorGroups(store, { projectId: project, retentionDays: 30 });
      expect(groups).toHaveLength(1);
      expect(groups[0].count).toBe(2);
      expect((await readErrors(store, { projectId: project, retentionDays: 30 })).errors).toHaveLength(2);
      const [usage] = await readLlmUsage(store, { projectId: project, retentionDays: 30 });
      expect(usage).toMatchObject({ calls: 1, input_tokens: 10, output_tokens: 5, cost_usd: 0.25, model: 'gpt-x' });
      expect(await readTrace(store, project, 'trace-1', 30)).toHaveLength(1);
    });

    it('charts LLM usage per bucket and model, and tabulates it per model and provider, costliest first', async () => {
      const p = randomUUID();
      const base = Math.floor(Date.now() / 60_000) * 60_000 - 3600_000;
      const buckets = bucketsOf({ fromMs: base, toMs: base + 10 * 60_000 }, 5); // five 2-minute buckets
      const at = (min: number) => new Date(base + min * 60_000).toISOString();
      // [minute, model, provider, input, output, cost, latency]; costs are exact in binary
      const calls = [
        [0.5, 'a', 'p1', 10, 1, 0.5, 100],
        [1.5, 'a', 'p1', 20, 2, 0.25, 300],
        [5, 'a', 'p1', 4, 0, 0.125, 200],
        [3, 'b', 'p2', 5, 5, 2, 50],
        [9, 'a', 'p2', 1, 0, 0.0625, 1000],
        [-1, 'a', 'p1', 7, 7, 8, 1], // before the range
        [11, 'b', 'p2', 7, 7, 8, 1], // after it
      ] as const;
      const rows = calls.map(([min, model, provider, input_tokens, output_tokens, cost_usd, latency_ms]) =>
        toRow(
          newEnvelope(
            'llm',
            p,
            at(min),
            llmToEvent({ service: 's', environment: 'e', model, provider, operation: 'chat', input_tokens, output_tokens, cost_usd, latency_ms }, at(min)),
          ),
        ),
      );
      await store.insert(KINDS.llm.name, rows);
      await store.insert(KINDS.llm.name, rows); // a replayed batch counts once
      const sent = (usd: number) => ({ sent_cost_usd: usd, estimated_cost_usd: 0, estimated_calls: 0, unpriced_calls: 0 });

      expect(await readLlmUsage(store, { projectId: p, retentionDays: 30, buckets, by: ['bucket', 'model'], measures: ['calls', 'tokens', 'cost_usd'] })).toEqual([
        { bucket: 0, model: 'a', calls: 2, tokens: 33, cost_usd: 0.75 },
        { bucket: 1, model: 'b', calls: 1, tokens: 10, cost_usd: 2 },
        { bucket: 2, model: 'a', calls: 1, tokens: 4, cost_usd: 0.125 },
        { bucket: 4, model: 'a', calls: 1, tokens: 1, cost_usd: 0.0625 },
      ]);
      expect(await readLlmUsage(store, { projectId: p, retentionDays: 30, buckets, by: ['model', 'provider'], costliestFirst: true })).toEqual([
        // Every call was sent with its cost: the effective cost is as sent, nothing estimated (libs/kinds llm/cost.ts).
        {
          model: 'b',
          provider: 'p2',
          calls: 1,
          input_tokens: 5,
          output_tokens: 5,
          cached_input_tokens: 0,
          cost_usd: 2,
          ...sent(2),
          latency_p50_ms: 50,
          latency_p95_ms: 50,
        },
        {
          model: 'a',
          provider: 'p1',
          calls: 3,
          input_tokens: 34,
          output_tokens: 3,
          cached_input_tokens: 0,
          cost_usd: 0.875,
          ...sent(0.875),
          latency_p50_ms: 200,
          latency_p95_ms: 300,
        },
        {
          model: 'a',
          provider: 'p2',
          calls: 1,
          input_tokens: 1,
          output_tokens: 0,
          cached_input_tokens: 0,
          cost_usd: 0.0625,
          ...sent(0.0625),
          latency_p50_ms: 1000,
          latency_p95_ms: 1000,
        },
      ]);
      expect(await readLlmUsage(store, { projectId: p, retentionDays: 30, buckets, by: ['provider'], measures: ['input_tokens', 'tokens'] })).toEqual([
        { provider: 'p1', input_tokens: 34, tokens: 37 },
        { provider: 'p2', input_tokens: 6, tokens: 11 },
      ]);
      expect(await readLlmUsage(store, { projectId: p, retentionDays: 30, buckets, by: ['model', 'provider'], costliestFirst: true, limit: 1 })).toHaveLength(1);
      expect(await readLlmUsage(store, { projectId: randomUUID(), retentionDays: 30, buckets, by: ['model'] })).toEqual([]);
      await expect(readLlmUsage(store, { projectId: p, retentionDays: 30, by: ['bucket'] })).rejects.toThrow(/buckets/);
    });

    it('counts error occurrences per bucket for the groups asked, zero where none', async () => {
      const p = randomUUID();
      const base = Math.floor(Date.now() / 60_000) * 60_000 - 3600_000;
      const buckets = bucketsOf({ fromMs: base, toMs: base + 10 * 60_000 }, 5);
      const at = (min: number) => new Date(base + min * 60_000).toISOString();
      const report = (fn: string) =>
        ({
          service: 'api',
          environment: 'e',
          error_message: 'boom',
          stack_trace: `Error: boom\n    at ${fn} (/app/x.js:1:1)`,
          severity: 'high',
          breadcrumbs: [],
        }) as never;
      const occurrence = (project: string, fn: string, min: number) => toRow(newEnvelope('error', project, at(min), errorToEvent(report(fn), at(min))));
      const rows = [
        occurrence(p, 'f', 0.5),
        occurrence(p, 'f', 1),
        occurrence(p, 'f', 9),
        occurrence(p, 'f', 12),
        occurrence(p, 'g', 3),
        occurrence(randomUUID(), 'f', 0.5),
      ];
      await store.insert(KINDS.error.name, rows);
      await store.insert(KINDS.error.name, rows); // a replayed batch counts once
      const [fpF, fpG] = [String(rows[0].fingerprint), String(rows[4].fingerprint)];
      const unseen = 'f'.repeat(64);
      expect(fpF).not.toBe(fpG);
      expect(await readErrorActivity(store, { projectId: p, retentionDays: 30, fingerprints: [fpF, fpG, unseen], buckets })).toEqual({
        [fpF]: [2, 0, 0, 0, 1],
        [fpG]: [0, 1, 0, 0, 0],
        [unseen]: [0, 0, 0, 0, 0],
      });
      expect(await readErrorActivity(store, { projectId: p, retentionDays: 30, fingerprints: [], buckets })).toEqual({});
    });

    it('groups errors with first and last seen', async () => {
      const [g] = await readErrorGroups(store, { projectId: project, retentionDays: 30 });
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

    readLimitsContract(() => store, CONTRACT_READS);
  });
}
