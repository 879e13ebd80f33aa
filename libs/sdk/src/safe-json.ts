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

/** Whether plain JSON.stringify would lose or refuse something (an Error, a BigInt, a cycle: past MAX_DEPTH). Walks without copying. */
function needsNormalizing(value: unknown, depth: number): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  if (value instanceof Error || depth >= MAX_DEPTH) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (needsNormalizing(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) if (needsNormalizing((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/** Plain data (nearly every record) is stringified as it is; only what needs it is copied and normalised first. */
export function safeStringify(value: unknown): string {
  return JSON.stringify(needsNormalizing(value, 0) ? normalize(value, []) : value);
}
