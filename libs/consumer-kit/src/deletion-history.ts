import { decodeDeletion, type DeletionEvent } from '@devtrail/contract';
import type { MessageLog } from '@devtrail/message-log';

/**
 * Every deletion the deletions topic holds now (docs/topics.md, "Deletions"), read outside any
 * consumer group; a message that is not a deletion this build can read is left out and named
 * in `unreadable`. Rejects when the topic cannot be read (it may not exist yet).
 */
export async function readDeletionHistory(log: MessageLog, topic: string): Promise<{ deletions: DeletionEvent[]; unreadable: string[] }> {
  const marks = await log.watermarks(topic);
  const deletions: DeletionEvent[] = [];
  const unreadable: string[] = [];
  await log.read(
    topic,
    marks.map((m) => ({ partition: m.partition, from: m.low, to: m.high })),
    async (messages) => {
      for (const m of messages) {
        try {
          deletions.push(decodeDeletion(m.value));
        } catch (err) {
          unreadable.push(`${m.partition}:${m.offset}: ${(err as Error).message}`);
        }
      }
    },
  );
  return { deletions, unreadable };
}
