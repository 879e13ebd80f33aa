import { createHash } from 'node:crypto';
import type { Scrubbing } from '../policy.ts';

// The scrubber's certificate (docs/data.md#scrubbing, "Forwarded as sent"): a request goes to
// Kafka as it was sent only when scrubbing it under the project's rules changed nothing
// (Scrubber.edits counts every change it makes). The certificate names the rules it was
// checked under, by a digest, so the message says what it was scrubbed with without carrying
// the project's patterns; `none` when the project scrubs nothing.

/** What every certificate starts with (the contract's decoder requires it: CERTIFIED). */
export const UNCHANGED = 'unchanged';

/** The certificate of a request scrubbing left unchanged under these settings (null: the project scrubs nothing). */
export function scrubCertificate(settings: Scrubbing | null): string {
  if (settings === null || (!settings.defaults && settings.rules.length === 0)) return `${UNCHANGED} rules=none`;
  const digest = createHash('sha256')
    .update(JSON.stringify({ defaults: settings.defaults, rules: settings.rules }))
    .digest('hex')
    .slice(0, 16);
  return `${UNCHANGED} rules=${digest}`;
}
