import type { Config, Logger } from '@devtrail/config';
import { EVENT_KINDS, kindByName, type EventKind } from '@devtrail/kinds';
import { openAdapters } from '@devtrail/runtime';
import { parsePoint, ReplayError } from './range.ts';
import { describeResult, replay } from './replay.ts';
import { loadDeletions } from './replay-deletions.ts';

// `devtrail replay`: unlike the other commands, which call the admin API, it talks to Kafka
// and ClickHouse itself, with the services' own configuration (the environment, parsed by
// libs/config): a replay moves far more data than an HTTP request should carry, needs
// Kafka's admin rights that no devtrail service needs, and works while the dashboard is
// down. The in-process log of the embedded mode keeps no history to replay.

export const REPLAY_USAGE = `  replay <kind> [--from P] [--to P] [--dry-run]
                                           re-read a kind's topic (log, error, span, llm) and re-write its
                                           ClickHouse table; running it twice changes nothing
  replay <kind> --group NAME [--from P] [--dry-run]
                                           move consumer group NAME (stopped) to read the topic from P
      P: earliest (default --from) | latest (default --to) | ISO 8601 time | 90m, 6h, 7d ago
         | an offset for every partition (1200) | per partition (0:1200,1:980)
      replay reads KAFKA_* and CLICKHOUSE_* from the environment, as the services do; it never
      writes back what a deletion covers (the deletions topic; PostgreSQL only while that topic
      does not exist yet)`;

export interface ReplayIo {
  out(line: string): void;
  err(line: string): void;
  json: boolean;
}

function take(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  if (value === undefined || value.startsWith('--')) throw new ReplayError(`${name} needs a value`);
  return value;
}

export async function runReplay(config: Config, logger: Logger, argv: string[], io: ReplayIo): Promise<void> {
  const args = [...argv];
  const dryRun = args.includes('--dry-run');
  if (dryRun) args.splice(args.indexOf('--dry-run'), 1);
  const group = take(args, '--group');
  const from = parsePoint(take(args, '--from') ?? 'earliest');
  const toText = take(args, '--to');
  if (group && toText) throw new ReplayError('--to does not apply to --group: a group reads on to the end of the topic');
  const to = parsePoint(toText ?? 'latest');
  const [name, ...extra] = args;
  const kind = (EVENT_KINDS as string[]).includes(name) ? (name as EventKind) : kindByName(name ?? '');
  if (!kind || extra.length > 0) throw new ReplayError(`usage:\n${REPLAY_USAGE}`);
  if (config.mode !== 'distributed')
    throw new ReplayError('replay reads Kafka and writes ClickHouse: it needs DEVTRAIL_MODE=distributed (the embedded log keeps no history)');

  const adapters = await openAdapters(config, logger);
  try {
    const deletions = await loadDeletions(config, adapters, { dryRun, note: io.err });
    const result = await replay(
      { kind, from, to, group, dryRun },
      {
        messageLog: adapters.messageLog,
        columnStore: adapters.columnStore,
        topics: adapters.topics,
        batchRows: config.consumers.batchRows,
        retentionDays: config.ingest.defaultRetentionDays,
        deletions,
        progress: io.err,
      },
    );
    io.out(io.json ? JSON.stringify(result, null, 2) : describeResult(result));
  } finally {
    await adapters.close();
  }
}
