import { createHmac } from 'node:crypto';
import { safeEqual } from '@devtrail/access';

/** Vercel signs the raw body with HMAC-SHA1 of the drain secret, hex, in x-vercel-signature. */
export function validDrainSignature(rawBody: Buffer, secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = createHmac('sha1', secret).update(rawBody).digest('hex');
  return safeEqual(expected, header.trim().toLowerCase());
}
