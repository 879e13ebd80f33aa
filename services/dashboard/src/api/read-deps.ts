import type { ColumnStore } from '@devtrail/column-store';
import type { LlmPriceTable } from '@devtrail/config';
import type { RetentionOf } from '../data/project-retention.ts';
import type { ExportSlots } from './export-slots.ts';
import type { MergesOf } from './group-merges.ts';

/** What the read API's routes (logs.ts, traces.ts, errors.ts, llm.ts, releases.ts, ingestion.ts) read with. */
export interface ReadDeps {
  /** Lookups; `searches` waits behind them (column-store's READ_PRIORITY). */
  reads: ColumnStore;
  searches: ColumnStore;
  retentionOf: RetentionOf;
  /** Consumer lag for the ingestion view, when this process can see it. */
  lagOf?: () => Promise<unknown>;
  /** The price table behind estimated costs. */
  prices: LlmPriceTable;
  mergesOf: MergesOf;
  exports: ExportSlots;
}
