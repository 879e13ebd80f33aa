import { compileScrubber, resolvePolicy, scrubbingSchema, scrubCertificate, type ResolvedPolicy, type Scrubber } from '@devtrail/data-policy';
import type { KeyGrant } from '@devtrail/relational-store';

// A project's data policy as the accept step applies it, resolved and compiled once per
// cached key grant (auth/key-cache.ts): a setting changed in the dashboard evicts the
// grant on every receiver, and the next request compiles the new policy.

export interface GrantPolicy {
  policy: ResolvedPolicy;
  /** Null when the project turned the defaults off and has no rules. */
  scrubber: Scrubber | null;
  /** The certificate a request this scrubber left unchanged goes to Kafka with, as sent (data-policy certificate.ts). */
  certificate: string;
}

const DEFAULT_SCRUBBING = scrubbingSchema.parse({});

export class GrantPolicies {
  private readonly compiled = new WeakMap<KeyGrant, GrantPolicy>();

  constructor(private readonly defaultRetentionDays: number) {}

  of(grant: KeyGrant): GrantPolicy {
    let p = this.compiled.get(grant);
    if (!p) {
      const policy = resolvePolicy(grant.dataPolicy, this.defaultRetentionDays);
      let scrubber: Scrubber | null;
      let applied = policy.scrubbing;
      try {
        scrubber = compileScrubber(applied, grant.hashSalt);
      } catch {
        // A stored rule this version cannot compile: the defaults still apply, never nothing.
        applied = DEFAULT_SCRUBBING;
        scrubber = compileScrubber(applied, grant.hashSalt);
      }
      p = { policy, scrubber, certificate: scrubCertificate(scrubber ? applied : null) };
      this.compiled.set(grant, p);
    }
    return p;
  }
}
