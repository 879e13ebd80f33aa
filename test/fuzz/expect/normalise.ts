// The normalisations a stored value may differ from the sent one by, and no others
// (docs/api.md, "Limits, defaults and normalisation"). Everything else must read back
// exactly as it was sent.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Lone UTF-16 surrogates (a cut emoji) become U+FFFD; the column stores UTF-8, which cannot hold them. */
export const text = (s: string) => s.replace(LONE_SURROGATE, '\uFFFD');

/** Client timestamps are stored as the same instant, UTC, millisecond precision. */
export const instant = (iso: string) => new Date(iso).toISOString();

/** Durations, token counts and latencies are rounded to whole numbers. */
export const whole = (n: number) => Math.round(n);

/**
 * Free-form JSON (metadata, context, breadcrumbs, proxy): strings and keys as `text`; -0 reads
 * back as 0 (JSON text has no negative zero); a number past Float64 (`1e309`, read as
 * Infinity) reads back as null (docs/api.md: "Numbers inside metadata / context").
 */
export function json(v: unknown): unknown {
  if (typeof v === 'string') return text(v);
  if (typeof v === 'number') return !Number.isFinite(v) ? null : Object.is(v, -0) ? 0 : v;
  if (Array.isArray(v)) return v.map(json);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), json(x)]));
  return v;
}

/** The first difference between an expected and a stored value, as "path: expected … stored …"; null when equal. */
export function difference(expected: unknown, stored: unknown, path = '$'): string | null {
  const show = (v: unknown) => {
    const s = typeof v === 'number' && !Number.isFinite(v) ? String(v) : JSON.stringify(v);
    return s === undefined ? 'undefined' : s.length > 120 ? `${s.slice(0, 120)}… (${s.length} chars)` : s;
  };
  if (expected === stored) return null;
  if (typeof expected === 'object' && expected !== null && typeof stored === 'object' && stored !== null && Array.isArray(expected) === Array.isArray(stored)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(stored)]);
    if (Array.isArray(expected) && expected.length !== (stored as unknown[]).length)
      return `${path}: expected ${expected.length} items, stored ${(stored as unknown[]).length}`;
    for (const k of keys) {
      const d = difference((expected as Record<string, unknown>)[k], (stored as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return `${path}: expected ${show(expected)}, stored ${show(stored)}`;
}
