// The operator's edits of LLM prices (docs/otlp.md#llm-cost): one row per model, over the
// price files. Appended to MIGRATIONS in migrations.ts.
export const LLM_PRICE_MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 42,
    name: 'LLM price edits',
    sql: `
      CREATE TABLE llm_price_edits (
        -- Lower case, as the price table looks names up.
        model text PRIMARY KEY CHECK (model = lower(model) AND length(model) BETWEEN 1 AND 200),
        -- The model's prices as the API took them (checked there, and again when read).
        price jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by text NOT NULL
      );
    `,
  },
];
