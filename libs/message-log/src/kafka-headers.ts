import type { IHeaders } from 'kafkajs';

/** Header values as strings (a loop: this runs for every consumed message). */
export function headerStrings(raw: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (raw)
    for (const k in raw) {
      if (!Object.hasOwn(raw, k)) continue;
      const v = raw[k];
      out[k] = Buffer.isBuffer(v) ? v.toString('utf8') : String(v ?? '');
    }
  return out;
}
