// The edge classes a body contains (docs/api.md's list), so a finding names its class:
// the report groups findings by them. Descriptive only; no assertion depends on it.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UINT64_LIMIT = 2 ** 64;
/** DateTime64(3, 'UTC') holds 1900-01-01T00:00:00.000Z .. 2299-12-31T23:59:59.999Z. */
const [MIN_MS, MAX_MS] = [Date.UTC(1900, 0, 1), Date.UTC(2300, 0, 1) - 1];
const TIME_KEYS = new Set(['timestamp', 'start_time']);
const INTEGER_KEYS = new Set(['duration_ms', 'input_tokens', 'output_tokens', 'latency_ms']);
const NUMBER_KEYS = new Set([...INTEGER_KEYS, 'cost_usd', 'statusCode', 'timestamp']);

export function features(parsed: unknown): string[] {
  const found = new Set<string>();
  const visit = (v: unknown, key: string, depth: number) => {
    if (depth > 200) return found.add('deep nesting');
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) found.add('lone surrogate');
      if (v.includes('\u0000')) found.add('NUL');
      if (v.length > 100_000) found.add('long string');
      if (TIME_KEYS.has(key)) {
        const ms = Date.parse(v);
        if (Number.isNaN(ms)) found.add('unparseable timestamp');
        else if (ms < MIN_MS || ms > MAX_MS) found.add('timestamp outside 1900..2299');
      }
      if (/^(trace_id|span_id|parent_span_id|request_id|traceId|spanId|requestId|id)$/.test(key) && v.length > 100) found.add('id over 100 chars');
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) found.add(`non-finite number (${NUMBER_KEYS.has(key) ? key : 'in free-form JSON'})`);
      else if (INTEGER_KEYS.has(key) && Math.round(v) >= UINT64_LIMIT) found.add(`integer beyond UInt64 (${key})`);
      else if (INTEGER_KEYS.has(key) && Math.round(v) > Number.MAX_SAFE_INTEGER) found.add(`integer beyond 2^53 (${key})`);
      if (key === 'timestamp' && Number.isFinite(v) && (v < MIN_MS || v > MAX_MS)) found.add('timestamp outside 1900..2299');
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, key, depth + 1));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (LONE_SURROGATE.test(k)) found.add('lone surrogate');
        if (k.includes('\u0000')) found.add('NUL');
        visit(x, k, depth + 1);
      }
    }
  };
  visit(parsed, '', 0);
  return [...found].sort();
}
