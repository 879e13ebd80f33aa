import { createHmac, timingSafeEqual } from 'node:crypto';

// The generic webhook's signature (docs/alerts.md, "Verifying a webhook"):
//   X-Devtrail-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
// The timestamp is signed with the body, so a receiver can refuse an old request replayed.

export const SIGNATURE_HEADER = 'x-devtrail-signature';
export const DELIVERY_HEADER = 'x-devtrail-delivery';
/** How old a signature a receiver should accept (the documented default). */
export const SIGNATURE_TOLERANCE_S = 300;

export function signatureHex(secret: string, timestampS: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestampS}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${signatureHex(secret, t, body)}`;
}

/** What a receiver does: parse, recompute, compare in constant time, refuse outside the tolerance. */
export function verifySignature(secret: string, header: string | undefined, body: string, nowMs = Date.now(), toleranceS = SIGNATURE_TOLERANCE_S): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(nowMs / 1000 - t) > toleranceS) return false;
  return timingSafeEqual(Buffer.from(signatureHex(secret, t, body), 'hex'), Buffer.from(given, 'hex'));
}
