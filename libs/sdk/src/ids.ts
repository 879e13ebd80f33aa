// W3C trace-context ids: 32 lowercase hex for traces, 16 for spans, never all zeros.

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  const cryptoApi = (globalThis as { crypto?: { getRandomValues?: (a: Uint8Array) => Uint8Array } }).crypto;
  if (cryptoApi?.getRandomValues) return cryptoApi.getRandomValues(bytes);
  for (let i = 0; i < count; i++) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

function randomHex(byteCount: number): string {
  let hex = '';
  for (const b of randomBytes(byteCount)) hex += b.toString(16).padStart(2, '0');
  // An all-zero id is invalid in W3C trace context; the odds are negligible but the fix is cheap.
  return /^0+$/.test(hex) ? randomHex(byteCount) : hex;
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);

export function isValidTraceId(id: unknown): id is string {
  return typeof id === 'string' && TRACE_ID.test(id) && !/^0+$/.test(id);
}

export function isValidSpanId(id: unknown): id is string {
  return typeof id === 'string' && SPAN_ID.test(id) && !/^0+$/.test(id);
}
