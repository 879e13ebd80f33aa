import type { RelationalStore } from '../relational-store.ts';

// The operator's edits of LLM prices, deployment-wide: a model's prices replace the price
// files' for every project, past calls included (the reads price at read time).

/** At most this many models edited: each is a parameter of every LLM read's query. */
export const MAX_PRICE_EDITS = 1000;

export interface PriceEdit {
  /** Lower case. */
  model: string;
  /** The prices as the API took them (libs/config priceSchema). */
  price: unknown;
  updatedAt: string;
  updatedBy: string;
}

interface Row {
  model: string;
  price: unknown;
  updated_at: Date | string;
  updated_by: string;
}
const toEdit = (r: Row): PriceEdit => ({
  model: r.model,
  price: typeof r.price === 'string' ? JSON.parse(r.price) : r.price,
  updatedAt: new Date(r.updated_at).toISOString(),
  updatedBy: r.updated_by,
});

export function llmPriceEditsRepo(store: RelationalStore) {
  return {
    /** By model name. */
    async list(): Promise<PriceEdit[]> {
      return (await store.query<Row>('SELECT model, price, updated_at, updated_by FROM llm_price_edits ORDER BY model')).map(toEdit);
    },

    /** Sets a model's prices; null when MAX_PRICE_EDITS other models are edited already. */
    async put(model: string, price: unknown, by: string): Promise<PriceEdit | null> {
      const [row] = await store.query<Row>(
        `INSERT INTO llm_price_edits (model, price, updated_by)
         SELECT $1, $2::jsonb, $3 WHERE (SELECT count(*) FROM llm_price_edits WHERE model <> $1) < $4
         ON CONFLICT (model) DO UPDATE SET price = EXCLUDED.price, updated_by = EXCLUDED.updated_by, updated_at = now()
         RETURNING model, price, updated_at, updated_by`,
        [model.toLowerCase(), JSON.stringify(price), by, MAX_PRICE_EDITS],
      );
      return row ? toEdit(row) : null;
    },

    /** Whether the model had an edit (its files' price, if any, is in force again). */
    async remove(model: string): Promise<boolean> {
      return (await store.query('DELETE FROM llm_price_edits WHERE model = $1 RETURNING model', [model.toLowerCase()])).length > 0;
    },
  };
}

export type LlmPriceEditsRepo = ReturnType<typeof llmPriceEditsRepo>;
