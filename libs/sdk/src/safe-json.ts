// Telemetry must never throw into the caller, so serialisation tolerates
// cycles, BigInt and Error values that plain JSON.stringify rejects or empties.

const MAX_DEPTH = 12;

export function serializeError(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { name: err.name, message: err.message, stack: err.stack };
  if (err.cause !== undefined) out.cause = err.cause;
  return out;
}

function normalize(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return value;
  const obj = value instanceof Error ? serializeError(value) : value;
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') return obj; // Dates and friends
  // Only ancestors count as cycles: the same object referenced twice side by side is fine.
  if (ancestors.includes(value)) return '[Circular]';
  if (ancestors.length >= MAX_DEPTH) return '[Truncated]';
  ancestors.push(value);
  const out = Array.isArray(obj) ? obj.map((item) => normalize(item, ancestors)) : Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, normalize(v, ancestors)]));
  ancestors.pop();
  return out;
}

export function safeStringify(value: unknown): string {
  return JSON.stringify(normalize(value, []));
}
