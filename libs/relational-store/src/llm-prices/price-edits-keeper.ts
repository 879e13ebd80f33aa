import type { RelationalStore } from '../relational-store.ts';
import { llmPriceEditsRepo, type PriceEdit } from './llm-price-edits-repo.ts';

// Each process that prices LLM calls (the dashboard's reads, the alerts consumer's llm_cost
// rule) holds the operator's price edits in memory: read at start, after an edit made in this
// process at once, and every `intervalMs` for edits made in another (docs/otlp.md#llm-cost).

export interface PriceEditsKeeper {
  /** Reads the edits now and applies them. */
  refresh(): Promise<void>;
  stop(): void;
}

/** Starts keeping `apply` fed with the edits; resolves after the first read (a failed one is reported, and tried again on the next tick). */
export async function keepPriceEdits(
  store: RelationalStore,
  apply: (edits: PriceEdit[]) => void,
  opts: { intervalMs: number; onError: (err: unknown) => void },
): Promise<PriceEditsKeeper> {
  const repo = llmPriceEditsRepo(store);
  const refresh = async () => apply(await repo.list());
  const tick = () => refresh().catch(opts.onError);
  await tick();
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return { refresh, stop: () => clearInterval(timer) };
}
