import { earlierList, type ErrorEvent } from '@devtrail/kinds';
import type { GroupLookup } from '@devtrail/relational-store';

// The group an error event joins, decided before it is produced so that the answer names it
// (docs/fingerprint.md, "Upgrading" and "Merging groups"): a group merged by hand sends its
// events to the group it was merged into; an event whose earlier rules' fingerprints name a
// group one of those rules made joins it (the nearest rule first), so a grouping change splits no group. Answers are cached per
// (project, fingerprint, previous fingerprint) for a minute and dropped for a project when
// it changes (a merge NOTIFYs the project's channel). If PostgreSQL cannot answer, the event
// keeps its computed group: ingestion does not wait on the relational store for grouping.

const TTL_MS = 60_000;
const MAX_ENTRIES = 50_000;

export type Lookup = (projectId: string, fingerprints: string[], previous: string[]) => Promise<GroupLookup>;

export class GroupResolver {
  private readonly cache = new Map<string, { fp: string; until: number }>();

  constructor(
    private readonly lookup: Lookup,
    private readonly onFailure: (err: unknown) => void = () => {},
  ) {}

  /** Sets each event's fingerprint to the group it joins. */
  async resolve(projectId: string, events: ErrorEvent[]): Promise<void> {
    const now = Date.now();
    const open: ErrorEvent[] = [];
    for (const e of events) {
      const hit = this.cache.get(keyOf(projectId, e));
      if (hit && hit.until > now) e.fingerprint = hit.fp;
      else open.push(e);
    }
    if (open.length === 0) return;
    let found: GroupLookup;
    try {
      found = await this.lookup(
        projectId,
        open.map((e) => e.fingerprint),
        open.flatMap((e) => earlierList(e.previous_fingerprint)),
      );
    } catch (err) {
      this.onFailure(err);
      return;
    }
    for (const e of open) {
      const key = keyOf(projectId, e);
      e.fingerprint = joined(e, found);
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { fp: e.fingerprint, until: now + TTL_MS });
    }
  }

  /** Forgets a project's answers (its groups were merged; or PostgreSQL notifications were missed: all). */
  evictProject(projectId: string): void {
    for (const k of this.cache.keys()) if (k.startsWith(`${projectId}|`)) this.cache.delete(k);
  }

  clear(): void {
    this.cache.clear();
  }
}

const keyOf = (projectId: string, e: ErrorEvent) => `${projectId}|${e.fingerprint}|${e.previous_fingerprint}`;

function joined(e: ErrorEvent, found: GroupLookup): string {
  const merged = found.merged.get(e.fingerprint);
  if (merged) return merged;
  for (const earlier of earlierList(e.previous_fingerprint)) {
    const into = found.merged.get(earlier) ?? (found.previous.has(earlier) ? earlier : undefined);
    if (into) return into;
  }
  return e.fingerprint;
}
