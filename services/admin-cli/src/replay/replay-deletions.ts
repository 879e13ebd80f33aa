import type { Config } from '@devtrail/config';
import { deletionEventOf, Deletions } from '@devtrail/contract';
import { readDeletionHistory } from '@devtrail/consumer-kit';
import { deletionsRepo } from '@devtrail/relational-store';
import type { Adapters } from '@devtrail/runtime';
import { ReplayError } from './range.ts';

// What a replay must not write back (docs/topics.md, "Deletions"): every deletion on the
// deletions topic, which a dashboard publishes before it deletes anything, so a deletion not
// yet published has deleted nothing yet and its own steps delete what a replay writes. The
// topic exists once a dashboard of this version ran; before, PostgreSQL's records are read
// instead, and a rebuild stops if PostgreSQL cannot be reached (a dry run goes on, and says so).

/** host:port of a postgres:// URL, without its credentials. */
function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}`;
  } catch {
    return '(DATABASE_URL unreadable)';
  }
}

export async function loadDeletions(config: Config, adapters: Adapters, o: { dryRun: boolean; note(line: string): void }): Promise<Deletions> {
  const topic = adapters.topics.deletions();
  let missing: string;
  try {
    const { deletions, unreadable } = await readDeletionHistory(adapters.messageLog, topic);
    if (unreadable.length > 0)
      throw new ReplayError(`${topic} holds deletions this devtrail cannot read (${unreadable.slice(0, 3).join('; ')}): upgrade the CLI before replaying`);
    return new Deletions(deletions);
  } catch (err) {
    if (err instanceof ReplayError) throw err;
    missing = (err as Error).message;
  }
  try {
    const recorded = await deletionsRepo(adapters.relational).list(null, Number.MAX_SAFE_INTEGER);
    return new Deletions(recorded.map((d) => deletionEventOf({ ...d, filter: d.filter as Record<string, string> })));
  } catch (err) {
    const why =
      `the deletions topic ${topic} cannot be read (${missing}; a dashboard of this version creates it and publishes every deletion), ` +
      `and PostgreSQL at ${where(config.postgres.url)} (DATABASE_URL), which records them, cannot be reached: ${(err as Error).message}`;
    if (!o.dryRun) throw new ReplayError(`replay needs to know what was deleted, so as not to write it back: ${why}`);
    o.note(`dry run without the deletions: ${why}; deleted events are counted as if kept`);
    return new Deletions();
  }
}
