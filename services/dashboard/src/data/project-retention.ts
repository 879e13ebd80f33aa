import type { EventKind } from '@devtrail/kinds';
import { resolvePolicy } from '@devtrail/data-policy';
import { dataPolicyRepo, type RelationalStore } from '@devtrail/relational-store';

/** A project's retention per kind, as every read applies it: rows past it are never returned (docs/data.md#retention). */
export type RetentionOf = (projectId: string) => Promise<Record<EventKind, number>>;

export function retentionLookup(relational: RelationalStore, defaultRetentionDays: number): RetentionOf {
  const repo = dataPolicyRepo(relational);
  return async (projectId) => resolvePolicy((await repo.get(projectId))?.policy ?? {}, defaultRetentionDays).retentionDays;
}
