import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// API keys (docs/api.md): "dt_" + 24 lowercase hex (12 random bytes). Only the SHA-256 hash and a
// short display prefix are ever stored.
export const API_KEY_PATTERN = /^dt_[0-9a-f]{24}$/;
export const KEY_DISPLAY_LENGTH = 7; // "dt_" + 4 hex: enough to recognise, useless to guess

export function generateApiKey(): string {
  return `dt_${randomBytes(12).toString('hex')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyDisplayPrefix(key: string): string {
  return key.slice(0, KEY_DISPLAY_LENGTH);
}

/** Constant-time equality of two hex digests (or any equal-length secrets). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ba.length !== bb.length) {
    timingSafeEqual(ba, ba); // same work either way
    return false;
  }
  return timingSafeEqual(ba, bb);
}
