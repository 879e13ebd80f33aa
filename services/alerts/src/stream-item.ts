import { decodeMessage, HEADERS, type Envelope } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import type { ConsumedMessage } from '@devtrail/message-log';
import type { Decoded } from '@devtrail/consumer-kit';
import type { RuleCache } from './rule-cache.ts';

// What the alerts consumer takes from a message: where it is (partition, offset: the
// position its effects are recorded under), whose and when, and the event itself only
// when a rule needs it. A message of a project without rules for its kind is skipped on
// its headers alone, without parsing its value (errors are always read: triage needs them).

export interface StreamItem<K extends EventKind = EventKind> {
  projectId: string;
  partition: number;
  offset: bigint;
  /** Receive time: the error's timestamp, else the message's append time. */
  atMs: number;
  event?: Envelope<K>;
}

interface Logger {
  warn(obj: object, msg?: string): void;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, which events may (ClickHouse stores it): the
 * strings this consumer keeps or sends (release, messages, names) get U+FFFD in its place.
 */
function withoutNul<K extends EventKind>(event: Envelope<K>): Envelope<K> {
  const data = event.data as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(data)) {
    if (typeof v === 'string' && v.includes('\u0000')) {
      copy ??= { ...data };
      copy[k] = v.replaceAll('\u0000', '\uFFFD');
    }
  }
  return copy ? ({ ...event, data: copy } as Envelope<K>) : event;
}

export function alertsDecoder<K extends EventKind>(kind: K, rules: RuleCache, logger: Logger) {
  return (m: ConsumedMessage): Decoded<StreamItem<K>> => {
    const where = { partition: m.partition, offset: BigInt(m.offset) };
    const headerProject = m.headers[HEADERS.projectId];
    const decode = kind === 'error' || !headerProject || rules.readsEvents(headerProject, kind);
    if (!decode) {
      return { items: rules.watchesSilence(headerProject, kind) ? [{ projectId: headerProject, ...where, atMs: m.timestamp }] : [] };
    }
    try {
      const d = decodeMessage(kind, m);
      // Unreadable events are the sinks' to dead-letter; this consumer only skips them.
      return {
        items: d.events.map((event) => ({
          projectId: event.project_id,
          ...where,
          atMs: kind === 'error' ? Date.parse((event.data as { timestamp: string }).timestamp) : m.timestamp,
          event: withoutNul(event),
        })),
      };
    } catch (err) {
      logger.warn({ topic: m.topic, partition: m.partition, offset: m.offset, err: (err as Error).message }, 'alerts: unreadable message skipped');
      return { items: [] };
    }
  };
}
