import type { Logger } from '@devtrail/config';
import { deletionEventOf, Deletions, type Envelope } from '@devtrail/contract';
import { deletionsRepo, EVENTS_DELETED_CHANNEL, PROJECT_DELETED_CHANNEL, type RelationalStore } from '@devtrail/relational-store';

// What was deleted so far, so the sinks never write it again, even events still in Kafka
// (docs/data.md#deletion): the deleted projects (PostgreSQL deleted_projects), and every
// deletion of some of a project's events (data_deletions: a service, a time range, kinds, a
// lowered retention; matched as the deletions topic's consumers match them, contract
// deletions.ts). Read before the sinks start, kept current by NOTIFY as a deletion is made,
// and read again after a lost connection and every `refreshMs`. If PostgreSQL cannot be
// reached at start, the sinks start anyway and the lists fill once it answers; a deletion's
// own steps remove what was written meanwhile.

export interface DeletedProjects {
  has(projectId: string): boolean;
  readonly size: number;
  /** Whether a deletion of some of its project's events covers this event. */
  covers(event: Envelope): boolean;
  stop(): Promise<void>;
}

export async function watchDeletedProjects(relational: RelationalStore, logger: Logger, refreshMs = 60_000): Promise<DeletedProjects> {
  const repo = deletionsRepo(relational);
  let ids = new Set<string>();
  let events = new Deletions();
  const reloadEvents = async () => {
    try {
      events = new Deletions((await repo.eventDeletions()).map((d) => deletionEventOf({ ...d, filter: d.filter as Record<string, string> })));
    } catch (err) {
      logger.debug({ err: (err as Error).message }, 'deletions: not read; keeping the last list');
    }
  };
  const reload = async () => {
    try {
      ids = new Set(await repo.deletedProjectIds());
    } catch (err) {
      logger.debug({ err: (err as Error).message }, 'deleted projects: not read; keeping the last list');
    }
    await reloadEvents();
  };
  // Listening first: a deletion between the read and the LISTEN would be missed.
  const listen = (channel: string, onNotify: (payload: string) => void) =>
    relational
      .listen(channel, onNotify, () => void reload())
      .catch((err) => {
        logger.warn({ err: (err as Error).message }, 'deletions: cannot listen for them; reading them every minute');
        return async () => {};
      });
  const unlisten = [await listen(PROJECT_DELETED_CHANNEL, (projectId) => ids.add(projectId)), await listen(EVENTS_DELETED_CHANNEL, () => void reloadEvents())];
  await reload();
  const timer = setInterval(() => void reload(), refreshMs);
  timer.unref();
  return {
    has: (id) => ids.has(id),
    get size() {
      return ids.size;
    },
    covers: (e) => events.size > 0 && events.touches(e.project_id) && events.covering(e) !== undefined,
    async stop() {
      clearInterval(timer);
      for (const u of unlisten) await u();
    },
  };
}
