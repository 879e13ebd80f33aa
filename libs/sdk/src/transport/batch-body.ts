// The request body of a batch (docs/api.md#batch), assembled from records serialised once when
// they were queued: nothing is serialised twice, and a retried request rebuilds byte for byte
// the body it sent before (same prefix, same records, same order), as its Idempotency-Key needs.
import { safeStringify } from '../safe-json.js';
import type { Envelope } from '../wire.js';

/** The contract's kind ids (libs/kinds); test/contract-conformance holds the sections equal to its table. */
export type IngestKind = 'log' | 'error' | 'span' | 'llm' | 'session' | 'metric' | 'score';

/** The batch request's section of each kind (the kinds' plural names). */
export const SECTIONS: Record<IngestKind, string> = { log: 'logs', error: 'errors', span: 'spans', llm: 'llm', session: 'sessions', metric: 'metrics', score: 'scores' };

export interface QueuedRecord {
  kind: IngestKind;
  json: string;
  bytes: number;
}

/** The envelope's fields as the start of a body: `{"service":…,"release":…` without its closing brace. */
export function bodyPrefix(envelope: Envelope): string {
  return safeStringify(envelope).slice(0, -1);
}

export function bodyOf(prefix: string, records: readonly QueuedRecord[]): string {
  const sections = new Map<IngestKind, string[]>();
  for (const r of records) {
    const list = sections.get(r.kind);
    if (list) list.push(r.json);
    else sections.set(r.kind, [r.json]);
  }
  let body = prefix;
  for (const [kind, list] of sections) body += `${body.length > 1 ? ',' : ''}"${SECTIONS[kind]}":[${list.join(',')}]`;
  return `${body}}`;
}

/** UTF-8 length of a string, without a TextEncoder allocation per record. */
export function utf8Bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : c >= 0xd800 && c <= 0xdbff ? 0 : 1;
  }
  return n;
}

export function recordOf(kind: IngestKind, json: string): QueuedRecord {
  return { kind, json, bytes: utf8Bytes(json) };
}
