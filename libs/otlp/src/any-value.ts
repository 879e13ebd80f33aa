import type { AnyValue, Int64, KeyValue } from './otlp-types.ts';

// OTLP attribute values -> plain JSON values for devtrail's metadata. Integers stay
// numbers when JavaScript holds them exactly, else their decimal string; bytes become
// base64; non-finite doubles (which JSON cannot hold) become strings.

export function int64ToNumber(v: Int64): number {
  return typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : v.toNumber();
}

function intValue(v: Int64): number | string {
  const n = int64ToNumber(v);
  return Number.isSafeInteger(n) ? n : String(v);
}

// protobufjs messages carry proto3 defaults on their prototype ('' for stringValue, 0 ...),
// so the oneof member that was actually set is the one that is an own property.
const isSet = <K extends keyof AnyValue>(v: AnyValue, k: K): v is AnyValue & Required<Pick<AnyValue, K>> => Object.hasOwn(v, k) && v[k] != null;

export function plainValue(v: AnyValue | null | undefined): unknown {
  if (!v) return null;
  if (isSet(v, 'stringValue')) return v.stringValue;
  if (isSet(v, 'boolValue')) return v.boolValue;
  if (isSet(v, 'intValue')) return intValue(v.intValue!);
  if (isSet(v, 'doubleValue')) return Number.isFinite(v.doubleValue) ? v.doubleValue : String(v.doubleValue);
  if (isSet(v, 'arrayValue')) return (v.arrayValue!.values ?? []).map(plainValue);
  if (isSet(v, 'kvlistValue')) return attributesToObject(v.kvlistValue!.values);
  if (isSet(v, 'bytesValue')) return Buffer.from(v.bytesValue!).toString('base64');
  return null;
}

/** The body as text: a string body as is, anything else as JSON, nothing as ''. */
export function bodyText(v: AnyValue | null | undefined): string {
  if (v && isSet(v, 'stringValue')) return v.stringValue!;
  const p = plainValue(v);
  return p === null ? '' : typeof p === 'string' ? p : JSON.stringify(p);
}

export function attributesToObject(kvs: KeyValue[] | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!kvs) return out;
  for (const kv of kvs) {
    if (kv.key == null) continue;
    // A key named "__proto__" must stay a plain own key, not set the prototype.
    if (kv.key === '__proto__') Object.defineProperty(out, kv.key, { value: plainValue(kv.value), enumerable: true, writable: true, configurable: true });
    else out[kv.key] = plainValue(kv.value);
  }
  return out;
}

/** An attribute as a string when it is a scalar, else undefined. */
export function stringAttr(attrs: Record<string, unknown>, key: string): string | undefined {
  const v = attrs[key];
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** An attribute as a number when it is numeric (OTLP int or double, or a numeric string), else undefined. */
export function numberAttr(attrs: Record<string, unknown>, key: string): number | undefined {
  const v = attrs[key];
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}
