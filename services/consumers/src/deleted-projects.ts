import type { Logger } from '@devtrail/config';
import { deletionsRepo, PROJECT_DELETED_CHANNEL, type RelationalStore } from '@devtrail/relational-store';

// The projects deleted so far (PostgreSQL deleted_projects), so the sinks never write their
// events again, even those still in Kafka (docs/data.md#deletion). Read before the sinks
// start, kept current by NOTIFY as a project is deleted, and read again after a lost
// connection and every `refreshMs`. If PostgreSQL cannot be reached at start, the sinks start
// anyway and the set fills once it answers; a deletion's last check removes what was written
// meanwhile.

export interface DeletedProjects {
  has(projectId: string): boolean;
  readonly size: number;
  stop(): Promise<void>;
}

export async function watchDeletedProjects(relational: RelationalStore, logger: Logger, refreshMs = 60_000): Promise<DeletedProjects> {
  const repo = deletionsRepo(relational);
  let ids = new Set<string>();
  const reload = async () => {
    try {
      ids = new Set(await repo.deletedProjectIds());
    } catch (err) {
      logger.debug({ err: (err as Error).message }, 'deleted projects: not read; keeping the last list');
    }
  };
  // Listening first: a deletion between the read and the LISTEN would be missed.
  const unlisten = await relational
    .listen(
      PROJECT_DELETED_CHANNEL,
      (projectId) => ids.add(projectId),
      () => void reload(),
    )
    .catch((err) => {
      logger.warn({ err: (err as Error).message }, 'deleted projects: cannot listen for deletions; reading them every minute');
      return async () => {};
    });
  await reload();
  const timer = setInterval(() => void reload(), refreshMs);
  timer.unref();
  return {
    has: (id) => ids.has(id),
    get size() {
      return ids.size;
    },
    async stop() {
      clearInterval(timer);
      await unlisten();
    },
  };
}
