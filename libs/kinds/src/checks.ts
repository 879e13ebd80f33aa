import { datetimeRegex } from 'zod';

// Checks that accept exactly what a zod schema accepts, for the paths that skip zod
// (a log request's fast path, a consumer decoding an event): zod stays the source of
// every rule and message, these only answer yes or "ask zod".

/** The regex z.string().datetime({ offset: true }) tests (zod builds it anew on every call). */
export const ISO_DATETIME = datetimeRegex({ precision: null, offset: true, local: false });

/** What zod treats as an object, restricted to what JSON.parse makes. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** z.record(z.unknown()) copies the object without an own "__proto__" key: leave that case to zod. */
export const plainRecord = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && !Object.hasOwn(v, '__proto__');

/** toISOString's own form: such a (valid) timestamp is already what utc() would return. */
const CANONICAL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Whether a (valid) timestamp is already what utc() returns for it. */
export const isCanonicalUtc = (iso: string) => iso.length === 24 && CANONICAL_UTC.test(iso);

/** A client timestamp normalised to UTC ISO 8601 with milliseconds (the same instant). */
export const utc = (iso: string) => (isCanonicalUtc(iso) ? iso : new Date(iso).toISOString());
