import { fingerprint, V2, type FingerprintInput } from './fingerprint.ts';
import { previousFingerprint } from './fingerprint-previous.ts';

// The fingerprints earlier grouping rules gave a report, nearest first, that differ from the
// current one: rule v2 (the stack-first rule before the cross-platform normalisations: its
// type names and message masks frozen in message-mask-v2.ts) and rule v1 (frozen in
// fingerprint-previous.ts). The receiver stores them with the event and a report joins the
// live group one of them names, so a change of the rule splits no group a project has
// (docs/fingerprint.md, "Upgrading").

/** Rule v2's fingerprint of a report. */
export const fingerprintV2 = (input: FingerprintInput) => fingerprint(input, V2);

/** The earlier rules' fingerprints, space-separated, nearest first; '' when the client chose the group. */
export function earlierFingerprints(input: FingerprintInput, current: string): string {
  if (input.fingerprint?.length) return '';
  const out: string[] = [];
  for (const fp of [fingerprintV2(input), previousFingerprint(input)]) if (fp !== current && !out.includes(fp)) out.push(fp);
  return out.join(' ');
}

/** A stored `previous_fingerprint` read as its list (rows written before v3 hold one fingerprint). */
export const earlierList = (stored: string) => stored.split(' ').filter((fp) => fp !== '');
