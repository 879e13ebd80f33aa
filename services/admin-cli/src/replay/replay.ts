import type { ColumnStore } from '@devtrail/column-store';
import { decodeMessage, HEADERS, type DeletionEvent, type Deletions, type Topics } from '@devtrail/contract';
import { isRetryable } from '@devtrail/failures';
import { kindOf, type EventKind } from '@devtrail/kinds';
import type { ConsumedMessage, MessageLog } from '@devtrail/message-log';
import { ReplayError, resolveRange, type Point, type ResolvedRange } from './range.ts';

// `devtrail replay` (docs/topics.md, "Replay"): re-reads a kind's topic over a range and
//   - rebuilds its ClickHouse table: each event becomes its row exactly as the kind's sink
//     makes it, inserted again; the tables keep one row per sorting key (ReplacingMergeTree,
//     read with FINAL), so replaying what is already stored changes nothing a read shows; or
//   - moves a named consumer group to the range's start, so that group's consumers (stopped
//     meanwhile) read everything from there: a backfill, or a new consumer's first run.
// A dry run reads the range and says how many events it would touch, writing nothing.

export interface ReplayRequest {
  kind: EventKind;
  from: Point;
  to: Point;
  /** Move this consumer group instead of rebuilding the table. */
  group?: string;
  dryRun: boolean;
}

export interface ReplayDeps {
  messageLog: MessageLog;
  columnStore: ColumnStore;
  topics: Topics;
  batchRows: number;
  /** RETENTION_DAYS: the retention of events whose message does not carry one (written by older receivers). */
  retentionDays: number;
  /** Every deletion (the deletions topic, docs/topics.md "Deletions"): a replay never writes back an event one covers. */
  deletions: Deletions;
  /** One line of progress (stderr). */
  progress(line: string): void;
}

export interface ReplayResult {
  kind: EventKind;
  topic: string;
  action: 'rebuild' | 'move-group';
  target: string;
  dry_run: boolean;
  partitions: Array<{ partition: number; from: string; to: string }>;
  messages: number;
  /** Events in the range (null after a group move: not read, its consumers will). */
  events: number | null;
  /** Events that could not be read (their messages went to the dead-letter topic when first consumed). */
  unreadable: number;
  /** Events inserted (0 on a dry run or a group move). */
  written: number;
  /** Events left out because a deletion covers them (counted on a dry run too). */
  discarded: number;
  /** Per deletion, the events of the range it covers: what was left out and why. */
  discarded_by: DiscardedBy[];
}

export interface DiscardedBy {
  deletion_id: string;
  reason: DeletionEvent['reason'];
  project_id: string;
  /** What the deletion named, as published (kinds, service, from, to). */
  filter: Pick<DeletionEvent, 'kinds' | 'service' | 'from' | 'to' | 'time'>;
  requested_at: string;
  events: number;
}

const PROGRESS_EVERY_MS = 1000;

/** Events a message carries, from its headers when they say (no parsing), else by decoding it. */
function eventCount(kind: EventKind, m: ConsumedMessage): { readable: number; unreadable: number } {
  const n = Number(m.headers[HEADERS.eventCount] ?? (m.headers[HEADERS.schemaVersion] === '1' ? 1 : Number.NaN));
  if (Number.isInteger(n)) return { readable: n, unreadable: 0 };
  try {
    const d = decodeMessage(kind, m);
    return { readable: d.events.length, unreadable: d.rejected.length };
  } catch {
    return { readable: 0, unreadable: 1 };
  }
}

async function withRetries<T>(what: string, step: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (!isRetryable(err) || attempt >= 8) throw new ReplayError(`${what} failed: ${(err as Error).message} (rows inserted before stay; run the replay again)`);
      await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** attempt, 5000)));
    }
  }
}

export async function replay(req: ReplayRequest, deps: ReplayDeps): Promise<ReplayResult> {
  const k = kindOf(req.kind);
  const topic = deps.topics.of(req.kind);
  const range: ResolvedRange = await resolveRange(deps.messageLog, topic, req.from, req.to);
  const result: ReplayResult = {
    kind: req.kind,
    topic,
    action: req.group ? 'move-group' : 'rebuild',
    target: req.group ?? k.name,
    dry_run: req.dryRun,
    partitions: range.ranges,
    messages: Number(range.messages),
    events: 0,
    unreadable: 0,
    written: 0,
    discarded: 0,
    discarded_by: [],
  };
  const by = new Map<string, DiscardedBy>();
  const discard = (d: DeletionEvent) => {
    result.discarded++;
    let b = by.get(d.deletion_id);
    if (!b) {
      const { kinds, service, from, to, time } = d;
      by.set(
        d.deletion_id,
        (b = {
          deletion_id: d.deletion_id,
          reason: d.reason,
          project_id: d.project_id,
          filter: { kinds, service, from, to, time },
          requested_at: d.requested_at,
          events: 0,
        }),
      );
    }
    b.events++;
  };
  if (req.group && !req.dryRun) {
    // Its consumers read the range when they start; reading it here only to count would double the work.
    await deps.messageLog.setGroupOffsets(
      req.group,
      range.ranges.map((r) => ({ topic, partition: r.partition, offset: r.from })),
    );
    result.events = null;
    return result;
  }

  // Read the range: count it (dry run) or re-write the table.
  const write = !req.dryRun && !req.group;
  let rows: unknown[][] = [];
  let read = 0;
  let events = 0;
  let lastReport = 0;
  const report = (final = false) => {
    if (!final && Date.now() - lastReport < PROGRESS_EVERY_MS) return;
    lastReport = Date.now();
    const pct = result.messages > 0 ? Math.floor((100 * read) / result.messages) : 100;
    deps.progress(`replay ${topic}: ${read}/${result.messages} messages (${pct}%), ${events} events${write ? `, ${result.written} written to ${k.name}` : ''}`);
  };
  const flush = async () => {
    if (rows.length === 0) return;
    const batch = rows;
    rows = [];
    await withRetries(`insert into ${k.name}`, () => deps.columnStore.insertCells(k.name, k.cellColumns, batch));
    result.written += batch.length;
  };
  await deps.messageLog.read(topic, range.ranges, async (messages) => {
    for (const m of messages) {
      read++;
      // A dry run decodes only what a deletion may cover; its headers count the rest.
      const project = m.headers[HEADERS.projectId];
      if (!write && (project === undefined || !deps.deletions.touches(project))) {
        const n = eventCount(req.kind, m);
        events += n.readable;
        result.unreadable += n.unreadable;
        continue;
      }
      let decoded: ReturnType<typeof decodeMessage>;
      try {
        decoded = decodeMessage(req.kind, m);
      } catch {
        result.unreadable++;
        continue;
      }
      events += decoded.events.length;
      result.unreadable += decoded.rejected.length;
      for (const e of decoded.events) {
        const d = deps.deletions.size > 0 ? deps.deletions.covering(e) : undefined;
        if (d) discard(d);
        else if (write) rows.push(k.toCells(e, deps.retentionDays));
      }
      if (rows.length >= deps.batchRows) await flush();
    }
    report();
  });
  await flush();
  result.events = events;
  result.discarded_by = [...by.values()];
  report(true);
  return result;
}

function describeDiscard(b: DiscardedBy): string {
  const f = b.filter;
  const what =
    b.reason === 'project'
      ? 'the project was deleted'
      : [
          b.reason === 'retention' ? 'retention shortened' : 'events deleted',
          f.kinds ? `kinds ${f.kinds.join(',')}` : '',
          f.service !== null ? `service "${f.service}"` : '',
          f.from || f.to ? `${f.time === 'received' ? 'received' : 'time'} ${f.from ?? '…'} to ${f.to ?? '…'}` : '',
        ]
          .filter(Boolean)
          .join(', ');
  return `  ${b.events} by deletion ${b.deletion_id} of project ${b.project_id} (${what}; requested ${b.requested_at})`;
}

/** The result as an operator reads it. */
export function describeResult(r: ReplayResult): string {
  const span = r.partitions.map((p) => `${p.partition}:${p.from}-${p.to}`).join(' ');
  const unread = r.unreadable > 0 ? ` (${r.unreadable} unreadable events skipped: they are on ${r.topic}.dlq)` : '';
  const gone =
    r.discarded > 0
      ? `\n${r.dry_run ? 'would discard' : 'discarded'} ${r.discarded} deleted events, never written back:\n${r.discarded_by.map(describeDiscard).join('\n')}`
      : '';
  if (r.action === 'rebuild')
    return r.dry_run
      ? `dry run: would re-write ${(r.events ?? 0) - r.discarded} of ${r.events} events (${r.messages} messages of ${r.topic}, offsets ${span}) into table ${r.target}${unread}${gone}`
      : `re-wrote ${r.written} of ${r.events} events (${r.messages} messages of ${r.topic}, offsets ${span}) into table ${r.target}${unread}${gone}`;
  const at = r.partitions.map((p) => `${p.partition}:${p.from}`).join(' ');
  return r.dry_run
    ? `dry run: would move consumer group ${r.target} on ${r.topic} to offsets ${at}; it would then read ${r.events} events (${r.messages} messages) up to now${unread}`
    : `moved consumer group ${r.target} on ${r.topic} to offsets ${at}; its consumers read the ${r.messages} messages from there on when they start`;
}
