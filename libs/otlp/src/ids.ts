// Trace and span ids: bytes in OTLP, lowercase hex in devtrail (as OTLP/JSON and W3C
// traceparent write them). All-zero or empty ids mean "none".

export function hexId(bytes: Uint8Array | null | undefined): string | undefined {
  if (!bytes || bytes.length === 0) return undefined;
  let any = 0;
  for (let i = 0; i < bytes.length; i++) any |= bytes[i];
  if (any === 0) return undefined;
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('hex');
}
