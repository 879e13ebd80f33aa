import { writesFirst } from '@devtrail/column-store';
import type { Engine } from './engine.ts';

/** Where a statement waits: writes before reads, reads by ClickHouse's `priority` (query-settings.ts). */
export interface StatementOrder {
  kind: 'read' | 'write';
  priority: number;
}

export interface ScheduledEngine {
  readonly version: string;
  run(sql: string, database: string, params: Readonly<Record<string, string>>, order: StatementOrder): Promise<Buffer>;
  /** Refuses new statements, waits for the accepted ones, closes the engine. */
  close(): Promise<void>;
}

// Either engine runs one statement at a time, in the order the column store's own chdb adapter
// uses (writesFirst, from @devtrail/column-store): a waiting write before any waiting read, then
// reads by lowest `priority`, each in arrival order, so a slow read holds an insert back by the
// read in flight only, which its own limits bound (docs/api.md, "Read limits"). A lookup's next
// statement comes over HTTP, so the engine keeps itself for it for a round trip (HOLD_MS).

/** How long the engine waits for a finished read's next statement: a round trip on this host, on a busy machine too. */
export const HOLD_MS = 100;

export function scheduled(engine: Engine): ScheduledEngine {
  const order = writesFirst(HOLD_MS);
  const accepted = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;
  return {
    version: engine.version,
    run(sql, database, params, { kind, priority }) {
      if (closing) return Promise.reject(new Error('the stand-in is shutting down'));
      const result = order.run(kind, () => engine.run(sql, database, params), priority);
      const settled = result.then(
        () => {},
        () => {},
      );
      accepted.add(settled);
      void settled.then(() => accepted.delete(settled));
      return result;
    },
    close: () =>
      (closing ??= (async () => {
        await Promise.all(accepted);
        await engine.close();
      })()),
  };
}
