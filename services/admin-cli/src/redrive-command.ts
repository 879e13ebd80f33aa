import type { Config, Logger } from '@devtrail/config';
import { redrive } from '@devtrail/consumer-kit';
import { openAdapters } from '@devtrail/runtime';
import { ReplayError } from './replay/range.ts';
import type { ReplayIo } from './replay/replay-command.ts';

// `devtrail redrive <group>`: sends a consumer-kit group's dead letters back to it once it can
// read them (docs/topics.md, "Dead letters of your own consumer"); talks to Kafka itself, as replay does.

export const REDRIVE_USAGE = `  redrive <group> [--dry-run]              send consumer group <group>'s dead letters (<group>.dlq) not yet
                                           redriven back to it (<group>.redrive); each once`;

export async function runRedrive(config: Config, logger: Logger, argv: string[], io: ReplayIo): Promise<void> {
  const args = [...argv];
  const dryRun = args.includes('--dry-run');
  if (dryRun) args.splice(args.indexOf('--dry-run'), 1);
  const [group, ...extra] = args;
  if (!group || group.startsWith('--') || extra.length > 0) throw new ReplayError(`usage:\n${REDRIVE_USAGE}`);
  if (config.mode !== 'distributed') throw new ReplayError('redrive reads and writes Kafka: it needs DEVTRAIL_MODE=distributed');
  const adapters = await openAdapters(config, logger);
  try {
    const r = await redrive({ messageLog: adapters.messageLog, groupId: group, dryRun });
    io.out(
      io.json
        ? JSON.stringify(r, null, 2)
        : r.dry_run
          ? `dry run: would send ${r.letters} dead letters of ${r.from} back to group ${r.group} (through ${r.to})`
          : `sent ${r.letters} dead letters of ${r.from} back to group ${r.group} (through ${r.to})`,
    );
  } finally {
    await adapters.close();
  }
}
