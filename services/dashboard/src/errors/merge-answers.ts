import { httpError } from '@devtrail/http';
import { MAX_MERGES, type MergeRefusal } from '@devtrail/relational-store';

// The 409 answers of a merge by hand (triage-routes.ts), each a sentence a person can act on.

export const MERGE_REFUSALS: Record<MergeRefusal, string> = {
  same_group: 'The two groups are one group already (one was merged into the other).',
  already_merged: 'This group was merged into another already: merge that one instead.',
  too_many_merges: `The project has ${MAX_MERGES} merged groups already.`,
};

export const conflict = (reason: MergeRefusal) => httpError(409, MERGE_REFUSALS[reason]);
