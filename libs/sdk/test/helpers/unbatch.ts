// The SDK sends every kind in POST /ingest/batch requests (docs/api.md#batch). Tests that ask
// "what did the SDK send to /ingest/<kind>" read the records of the batches back as the single-
// record bodies they stand for: a batch's `logs` (or `metrics`) section as one batch, each error report,
// span, LLM record and score as its own body, with the batch's shared fields.

const SECTION_OF_PATH: Record<string, string> = {
  '/ingest/logs': 'logs',
  '/ingest/errors': 'errors',
  '/ingest/traces': 'spans',
  '/ingest/llm': 'llm',
  '/ingest/sessions': 'sessions',
  '/ingest/metrics': 'metrics',
  '/ingest/scores': 'scores',
};

export function unbatch(batches: any[], path: string): any[] {
  const section = SECTION_OF_PATH[path];
  if (!section) return [];
  const out: any[] = [];
  for (const b of batches) {
    const { logs, errors, spans, llm, sessions, metrics, scores, ...shared } = b ?? {};
    const records = { logs, errors, spans, llm, sessions, metrics, scores }[section as 'logs'];
    if (!Array.isArray(records)) continue;
    // Logs and metrics: the section is one batch of their route; the other kinds' records are bodies each.
    if (section === 'logs' || section === 'metrics') out.push({ ...shared, [section]: records });
    else for (const r of records) out.push({ ...shared, ...r });
  }
  return out;
}
