import type { ColumnStore, InsertResult } from '@devtrail/column-store';
import type { Metrics } from '@devtrail/metrics';

// The column store with its inserts measured (docs/operations.md#metrics): rows, bytes and
// duration per table, whichever adapter stands behind it. Reads pass through as they are, their
// class included: the adapter applies the read limits (column-store's bounded-read.ts).
export function observeColumnStore(store: ColumnStore, metrics: Metrics): ColumnStore {
  const { clickhouseInsertRows: rows, clickhouseInsertBytes: bytes, clickhouseInsertDuration: duration } = metrics.m;
  const measured = async (table: string, count: number, insert: () => Promise<InsertResult>): Promise<InsertResult> => {
    const t0 = performance.now();
    try {
      const r = await insert();
      duration.observe({ table, outcome: 'ok' }, (performance.now() - t0) / 1000);
      rows.inc({ table }, count);
      bytes.inc({ table }, r.bytes);
      return r;
    } catch (err) {
      duration.observe({ table, outcome: 'error' }, (performance.now() - t0) / 1000);
      throw err;
    }
  };
  return {
    kind: store.kind,
    insert: (table, values) => measured(table, values.length, () => store.insert(table, values)),
    insertCells: (table, columns, values) => measured(table, values.length, () => store.insertCells(table, columns, values)),
    query: (sql, params, read) => store.query(sql, params, read),
    command: (sql, params) => store.command(sql, params),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
