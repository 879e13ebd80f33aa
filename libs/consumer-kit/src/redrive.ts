import type { MessageLog, OutgoingMessage } from '@devtrail/message-log';
import { DLQ_HEADERS } from './dead-letter.ts';
import { groupTopics } from './group-topics.ts';

// Sends a consumer group's dead letters back to it (docs/topics.md, "Dead letters of your own
// consumer"): once the consumer can read what it could not (an upgrade that knows a newer
// message version, a fix of its write), each letter not yet redriven is written, as it came
// (key, value, the original headers), to `<group>.redrive`, which only that group reads, so no
// other consumer of devtrail's topics sees it again. Which letters were redriven is the
// committed position of the group `<group>.redriver` on `<group>.dlq`: each letter is sent
// once (twice at most, should the process die between the send and that commit; consumers
// de-duplicate by event id). A letter that fails again is dead-lettered again, for a later redrive.

export const REDRIVEN_FROM_HEADER = 'dt-redriven-from';

export interface RedriveOptions {
  messageLog: MessageLog;
  /** The consumer group whose dead letters go back to it. */
  groupId: string;
  /** Its dead-letter and redrive topics, when not the kit's defaults (`<group>.dlq`, `<group>.redrive`). */
  deadLetterTopic?: string;
  redriveTopic?: string;
  /** Count what would be sent, send nothing. */
  dryRun?: boolean;
}

export interface RedriveResult {
  group: string;
  from: string;
  to: string;
  dry_run: boolean;
  /** Letters sent back (or that would be, on a dry run). */
  letters: number;
}

/** Nothing to redrive from: the dead-letter topic cannot be read. */
export class RedriveError extends Error {}

const LETTER_HEADERS = new Set<string>(Object.values(DLQ_HEADERS));

export async function redrive(o: RedriveOptions): Promise<RedriveResult> {
  const own = groupTopics(o.groupId);
  const from = o.deadLetterTopic ?? own.deadLetter;
  const to = o.redriveTopic ?? own.redrive;
  const redriver = `${o.groupId}.redriver`;
  await o.messageLog.watermarks(from).catch((err) => {
    throw new RedriveError(`cannot read ${from} (${(err as Error).message}): is ${o.groupId} a consumer group of the kit that has started? It creates that topic`);
  });
  const positions = await o.messageLog.lag(redriver, [from]);
  const ranges = positions.filter((p) => p.lag > 0).map((p) => ({ partition: p.partition, from: p.committed, to: p.end }));
  const result: RedriveResult = {
    group: o.groupId,
    from,
    to,
    dry_run: o.dryRun ?? false,
    letters: ranges.reduce((n, r) => n + Number(BigInt(r.to) - BigInt(r.from)), 0),
  };
  if (o.dryRun || ranges.length === 0) return result;
  const producer = o.messageLog.createProducer();
  try {
    await o.messageLog.read(from, ranges, async (letters) => {
      const messages: OutgoingMessage[] = letters.map((m) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(m.headers)) if (!LETTER_HEADERS.has(k)) headers[k] = v;
        headers[REDRIVEN_FROM_HEADER] = `${from}:${m.partition}:${m.offset}`;
        return { key: m.key, value: m.value ?? Buffer.alloc(0), headers };
      });
      await producer.send([{ topic: to, messages }]);
    });
  } finally {
    await producer.disconnect();
  }
  await o.messageLog.setGroupOffsets(
    redriver,
    positions.map((p) => ({ topic: from, partition: p.partition, offset: p.end })),
  );
  return result;
}
