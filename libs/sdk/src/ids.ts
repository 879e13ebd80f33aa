// W3C trace-context ids: 32 lowercase hex for traces, 16 for spans, never all zeros.

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

type Crypto = { getRandomValues?: (a: Uint8Array) => Uint8Array };

function fill(bytes: Uint8Array): Uint8Array {
  const cryptoApi = (globalThis as { crypto?: Crypto }).crypto;
  if (cryptoApi?.getRandomValues) return cryptoApi.getRandomValues(bytes);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

function randomBytes(count: number): Uint8Array {
  return fill(new Uint8Array(count));
}

// Span ids come from one pooled buffer refilled 4 KiB at a time (256 trace ids): one call into
// the random source per 256 spans instead of one each, and no buffer per id (docs/sdk.md#overhead).
const POOL = new Uint8Array(4096);
let poolAt = POOL.length;
const HEX: string[] = Array.from({ length: 256 }, (_, i) => (i < 16 ? '0' : '') + i.toString(16));

function pooledHex(byteCount: number): string {
  if (poolAt + byteCount > POOL.length) {
    fill(POOL);
    poolAt = 0;
  }
  let hex = '';
  let zero = true;
  for (let i = poolAt; i < poolAt + byteCount; i++) {
    hex += HEX[POOL[i]];
    if (POOL[i] !== 0) zero = false;
  }
  poolAt += byteCount;
  // An all-zero id is invalid in W3C trace context; the odds are negligible but the fix is cheap.
  return zero ? pooledHex(byteCount) : hex;
}

export const newTraceId = (): string => pooledHex(16);
export const newSpanId = (): string => pooledHex(8);

export function isValidTraceId(id: unknown): id is string {
  return typeof id === 'string' && TRACE_ID.test(id) && !/^0+$/.test(id);
}

export function isValidSpanId(id: unknown): id is string {
  return typeof id === 'string' && SPAN_ID.test(id) && !/^0+$/.test(id);
}

/**
 * A UUID version 7 (RFC 9562: 48-bit Unix milliseconds, then random bits), sent as the
 * Idempotency-Key of a request and again on each of its retries: the receiver then writes
 * the same event ids, and takes the key's time as the request's (docs/api.md).
 */
export function newIdempotencyKey(now: number = Date.now()): string {
  const b = randomBytes(16);
  const ms = Math.max(0, Math.floor(now));
  for (let i = 0; i < 6; i++) b[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  let hex = '';
  for (const x of b) hex += HEX[x];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
