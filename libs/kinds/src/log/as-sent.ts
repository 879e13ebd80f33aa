import { isCanonicalUtc } from '../checks.ts';

// Whether a log request that passed the fast path (fast-path.ts) can go to Kafka as it was
// sent (docs/topics.md, "Version 3"): it holds no field its events leave out, and nothing its
// events would carry differently (a timestamp not yet in UTC with milliseconds). Defaults are
// not differences: a consumer applies them from the message's headers, as the fast path does.

const TOP = new Set(['service', 'environment', 'release', 'logs']);
const ENTRY = new Set(['level', 'message', 'timestamp', 'metadata', 'trace_id', 'span_id', 'request_id', 'context', 'release']);

/** True for a body fastLogsToEvents took whose every field reaches its events unchanged. */
export function logsAsSent(body: unknown): boolean {
  const b = body as Record<string, unknown>;
  for (const k in b) if (!TOP.has(k)) return false;
  const logs = b.logs as Array<Record<string, unknown>>;
  for (let i = 0; i < logs.length; i++) {
    const l = logs[i];
    for (const k in l) if (!ENTRY.has(k)) return false;
    const ts = l.timestamp;
    if (ts !== undefined && !isCanonicalUtc(ts as string)) return false;
  }
  return true;
}
