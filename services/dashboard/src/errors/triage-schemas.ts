import { z } from 'zod';
import { fingerprintHex } from '@devtrail/kinds';
import { pgText } from '@devtrail/http';
import { errorGroupsQuery } from '../api/explore-schemas.ts';

// Request schemas of the triage routes (triage-routes.ts); the OpenAPI document is made from them.

export const TRIAGE_FILTERS = ['all', 'unresolved', 'new', 'regressed', 'resolved', 'ignored'] as const;
export const TRIAGE_ACTIONS = ['resolve', 'resolve_in_release', 'unresolve', 'ignore'] as const;

export const triageListQuery = errorGroupsQuery.extend({
  status: z.enum(TRIAGE_FILTERS).default('unresolved'),
  /** "me": only the groups assigned to the signed-in user (none for the operator token). */
  assigned: z.enum(['me']).optional(),
});

export const triageBody = z
  .object({
    fingerprints: z.array(fingerprintHex).min(1).max(100),
    action: z.enum(TRIAGE_ACTIONS),
    release: pgText().min(1).max(200).optional(),
    ignore_minutes: z
      .number()
      .int()
      .min(1)
      .max(366 * 24 * 60)
      .optional(),
    ignore_events: z.number().int().min(1).max(1_000_000_000).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.action === 'resolve_in_release') !== (b.release !== undefined))
      ctx.addIssue({ code: 'custom', path: ['release'], message: 'release is required for resolve_in_release, and only for it' });
    if (b.action !== 'ignore' && (b.ignore_minutes !== undefined || b.ignore_events !== undefined))
      ctx.addIssue({ code: 'custom', path: ['action'], message: 'ignore_minutes and ignore_events go with action ignore' });
    if (b.ignore_minutes !== undefined && b.ignore_events !== undefined)
      ctx.addIssue({ code: 'custom', path: ['ignore_events'], message: 'ignore for a duration or until a count of events, not both' });
  });

export type TriageBody = z.infer<typeof triageBody>;

/** Merging a group into another (docs/fingerprint.md#merging-groups). */
export const mergeBody = z.object({ into: fingerprintHex }).strict();

export const symbolicatedQuery = z.object({ event_id: z.string().uuid().optional() });
