// The SDK sends every kind in POST /ingest/batch requests (docs/api.md#batch). Tests that ask
// "what did the SDK send to /ingest/<kind>" read the records of the batches back as the single-
// record bodies they stand for: a batch's `logs` section as one log batch, each error report,
// span and LLM record as its own body, with the batch's shared fields.

const SECTION_OF_PATH: Record<string, string> = {
  '/ingest/logs': 'logs',
  '/ingest/errors': 'errors',
  '/ingest/traces': 'spans',
  '/ingest/llm': 'llm',
  '/ingest/sessions': 'sessions',
};

export function unbatch(batches: any[], path: string): any[] {
  const section = SECTION_OF_PATH[path];
  if (!section) return [];
  const out: any[] = [];
  for (const b of batches) {
    const { logs, errors, spans, llm, sessions, ...shared } = b ?? {};
    const records = { logs, errors, spans, llm, sessions }[section as 'logs'];
    if (!Array.isArray(records)) continue;
    if (section === 'logs') out.push({ ...shared, logs: records });
    else for (const r of records) out.push({ ...shared, ...r });
  }
  return out;
}
