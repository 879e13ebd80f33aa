import type { Merges } from '@devtrail/kinds';
import { errorGroupsRepo, type RelationalStore } from '@devtrail/relational-store';

// A project's groups merged by hand (docs/fingerprint.md#merging-groups), as the read queries
// take them: every read of groups reads a merged group's events as its target's.

export type MergesOf = (projectId: string) => Promise<Merges>;

export function mergesLookup(relational: RelationalStore): MergesOf {
  const repo = errorGroupsRepo(relational);
  return async (projectId) => new Map((await repo.merges(projectId)).map((m) => [m.source, m.target]));
}

/** No merges (a caller without the relational store). */
export const noMerges: MergesOf = async () => new Map();
