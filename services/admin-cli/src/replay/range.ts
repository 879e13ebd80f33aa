import type { MessageLog, PartitionRange } from '@devtrail/message-log';

// Where a replay starts and ends on each partition of a topic, from what an operator
// types (docs/topics.md, "Replay"), checked against what Kafka still retains.
//   earliest | latest           the oldest retained message | the end of the topic now
//   2026-11-21T10:00:00Z        the first message appended at or after that time
//   90m, 6h, 7d                 that long ago
//   1200 | 0:1200,1:980         an offset on every partition | per partition (others: the range's edge)

export class ReplayError extends Error {}

export type Point = { at: 'earliest' } | { at: 'latest' } | { at: 'time'; ms: number; text: string } | { at: 'offsets'; all?: bigint; byPartition: Map<number, bigint> };

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export function parsePoint(text: string, nowMs = Date.now()): Point {
  if (text === 'earliest' || text === 'latest') return text === 'earliest' ? { at: 'earliest' } : { at: 'latest' };
  const d = DURATION.exec(text);
  if (d) return { at: 'time', ms: nowMs - Number(d[1]) * UNIT_MS[d[2] as keyof typeof UNIT_MS], text: `${text} ago` };
  if (/^\d+$/.test(text)) return { at: 'offsets', all: BigInt(text), byPartition: new Map() };
  if (/^\d+:\d+(,\d+:\d+)*$/.test(text))
    return {
      at: 'offsets',
      byPartition: new Map(
        text
          .split(',')
          .map((pair) => pair.split(':'))
          .map(([p, o]) => [Number(p), BigInt(o)]),
      ),
    };
  const ms = /^\d{4}-\d\d-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms))
    throw new ReplayError(
      `cannot read "${text}" as a point in a topic: earliest, latest, an ISO 8601 time, a duration ago (90m, 6h, 7d), or offsets (1200, or 0:1200,1:980)`,
    );
  return { at: 'time', ms, text };
}

export interface ResolvedRange {
  topic: string;
  ranges: PartitionRange[];
  /** Messages in the ranges (offsets; every offset of devtrail's topics is a message). */
  messages: bigint;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The range [from, to) on every partition. Fails clearly when Kafka no longer retains its
 * start: an offset below a partition's oldest, or a time before the oldest message of a
 * partition that has already lost messages to retention.
 */
export async function resolveRange(log: MessageLog, topic: string, from: Point, to: Point): Promise<ResolvedRange> {
  const marks = await log.watermarks(topic);
  const at = async (p: Point, edge: 'low' | 'high'): Promise<Map<number, bigint>> => {
    if (p.at === 'earliest' || p.at === 'latest') return new Map(marks.map((m) => [m.partition, BigInt(p.at === 'earliest' ? m.low : m.high)]));
    if (p.at === 'time') return new Map((await log.offsetsAt(topic, p.ms)).map((o) => [o.partition, BigInt(o.offset)]));
    return new Map(marks.map((m) => [m.partition, p.byPartition.get(m.partition) ?? p.all ?? BigInt(m[edge])]));
  };
  const start = await at(from, 'low');
  const end = await at(to, 'high');
  const lost: string[] = [];
  for (const m of marks) {
    const [low, high, s, e] = [BigInt(m.low), BigInt(m.high), start.get(m.partition)!, end.get(m.partition)!];
    if (s > high || e > high) throw new ReplayError(`${topic} partition ${m.partition} ends at offset ${high}: offset ${s > high ? s : e} is past its end`);
    if (s > e) throw new ReplayError(`${topic} partition ${m.partition}: the range starts (offset ${s}) after it ends (offset ${e})`);
    if (from.at === 'offsets' && s < low) lost.push(`partition ${m.partition}: offsets ${s} to ${low - 1n} are gone (the oldest retained is ${low})`);
    if (from.at === 'time' && low > 0n && s === low && low < high) {
      // Retention deleted messages before `low`: were any of them appended after the start time?
      let first = 0;
      await log.read(topic, [{ partition: m.partition, from: m.low, to: String(low + 1n) }], async ([msg]) => void (first = msg.timestamp));
      if (first > from.ms)
        lost.push(`partition ${m.partition}: its oldest retained message was appended at ${iso(first)}, after ${from.text}; what came before it is deleted`);
    }
  }
  if (lost.length > 0)
    throw new ReplayError(
      `Kafka no longer retains the start of this range of ${topic}:\n  ${lost.join('\n  ')}\n` +
        'Retention (retention.ms, retention.bytes) decides how far back a replay reaches (docs/topics.md, "Retention"). ' +
        'Replay what is left with --from earliest.',
    );
  const ranges = marks.map((m) => ({ partition: m.partition, from: String(start.get(m.partition)), to: String(end.get(m.partition)) }));
  return { topic, ranges, messages: ranges.reduce((n, r) => n + BigInt(r.to) - BigInt(r.from), 0n) };
}
