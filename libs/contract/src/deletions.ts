import { z } from 'zod';
import { ISO_DATETIME, isPlainObject, KINDS, kindByName, type EventKind } from '@devtrail/kinds';
import type { Envelope, EncodedMessage } from './envelope.ts';
import { DecodeError, UnsupportedVersion } from './decode-error.ts';

// Deletions as events (docs/topics.md, "Deletions"): every deletion of stored events (a
// project, or some of its events: a service, a time range, some kinds, or what a lowered
// retention left behind) is published on the topic `<prefix>deletions`, so every consumer
// downstream can forget what devtrail forgot. devtrail's own sinks and `devtrail replay`
// never write an event a deletion covers; the consumer kit drops them before `write` and
// hands each deletion to the consumer's own callback.

export const DELETION_SCHEMA_VERSION = 1 as const;

const instant = z.string().datetime({ offset: true });

/**
 * The kinds a deletion message of this version can name: those there were when it was
 * published (docs/schemas/deletion-v1.json); naming another would break its readers. A kind
 * added since (sessions) is deleted with its project, and its rows expire with its retention,
 * until a new message version names it (docs/topics.md, "Evolution").
 */
export const DELETION_KINDS = ['log', 'error', 'span', 'llm'] as const satisfies readonly EventKind[];
export type DeletionKind = (typeof DELETION_KINDS)[number];
export const isDeletionKind = (kind: string): kind is DeletionKind => (DELETION_KINDS as readonly string[]).includes(kind);

/** One deletion, the value of a message on `<prefix>deletions` (JSON, `dt-schema-version: 1`). */
export const deletionShape = z.object({
  schema_version: z.literal(DELETION_SCHEMA_VERSION),
  deletion_id: z.string().uuid(),
  project_id: z.string().min(1),
  /** project: the project and every event of it; events: an operator's or member's deletion; retention: a shortened retention. */
  reason: z.enum(['project', 'events', 'retention']),
  /** The kinds it covers (the envelope's `kind`); null: every kind. */
  kinds: z.array(z.enum(DELETION_KINDS)).nullable(),
  /** Only this service's events; null: every service. */
  service: z.string().nullable(),
  /** Events whose time (`time` says which) is at or after this; null: no lower bound. */
  from: instant.nullable(),
  /** Events whose time is before this; null: no upper bound. */
  to: instant.nullable(),
  /** Which time from/to compare: the event's own (`event_time_fields`) or when devtrail received it (the envelope's received_at). */
  time: z.enum(['event', 'received']),
  /** Only events devtrail received before this (the envelope's received_at); later ones are not affected. Null: every event (a deleted project). */
  received_before: instant.nullable(),
  requested_at: instant,
});

/** One deletion (deletionShape, held to this interface below). */
export interface DeletionEvent {
  schema_version: typeof DELETION_SCHEMA_VERSION;
  deletion_id: string;
  project_id: string;
  reason: 'project' | 'events' | 'retention';
  kinds: DeletionKind[] | null;
  service: string | null;
  from: string | null;
  to: string | null;
  time: 'event' | 'received';
  received_before: string | null;
  requested_at: string;
}
const _sameShape: z.infer<typeof deletionShape> extends DeletionEvent ? (DeletionEvent extends z.infer<typeof deletionShape> ? true : never) : never = true;
void _sameShape;

/** The data field a kind's `time: "event"` compares (its read API's time: `timestamp`, spans' `start_time`). */
export const eventTimeField = (kind: EventKind): string => KINDS[kind].tableDef.timeColumn;

/** One deletion as its message: keyed by project (one project's deletions stay in order on one partition). */
export function encodeDeletion(d: DeletionEvent): EncodedMessage {
  return {
    key: d.project_id,
    value: Buffer.from(JSON.stringify(d)),
    headers: { 'dt-schema-version': String(DELETION_SCHEMA_VERSION), 'dt-project-id': d.project_id, 'content-type': 'application/json' },
  };
}

/** A deletion message's value; throws DecodeError (UnsupportedVersion for a newer one). Unknown fields are ignored. */
export function decodeDeletion(value: Buffer | string | null): DeletionEvent {
  let raw: unknown;
  try {
    raw = JSON.parse(value === null ? '' : value.toString());
  } catch {
    throw new DecodeError('deletion: message value is not JSON');
  }
  const version = isPlainObject(raw) ? raw.schema_version : undefined;
  if (typeof version === 'number' && version > DELETION_SCHEMA_VERSION) throw new UnsupportedVersion(version);
  const parsed = deletionShape.safeParse(raw);
  if (!parsed.success) throw new DecodeError(`bad deletion: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

const ms = (iso: string) => Date.parse(iso);

/** Whether the deletion covers this event. */
export function covers(d: DeletionEvent, e: Envelope): boolean {
  if (d.project_id !== e.project_id) return false;
  if (d.reason === 'project') return true;
  if (d.kinds && !(d.kinds as readonly string[]).includes(e.kind)) return false;
  const received = ms(e.received_at);
  if (d.received_before !== null && !(received < ms(d.received_before))) return false;
  const data = e.data as Record<string, unknown>;
  if (d.service !== null && data.service !== d.service) return false;
  if (d.from === null && d.to === null) return true;
  const own = data[eventTimeField(e.kind)];
  const t = d.time === 'received' ? received : typeof own === 'string' && ISO_DATETIME.test(own) ? ms(own) : Number.NaN;
  return (d.from === null || t >= ms(d.from)) && (d.to === null || t < ms(d.to));
}

/** The deletions known so far, by project: which one covers an event (cheap for a project that has none). */
export class Deletions {
  private readonly byProject = new Map<string, DeletionEvent[]>();
  private readonly ids = new Set<string>();

  constructor(deletions: Iterable<DeletionEvent> = []) {
    for (const d of deletions) this.add(d);
  }

  /** False when it was known already (a deletion can be delivered more than once). */
  add(d: DeletionEvent): boolean {
    if (this.ids.has(d.deletion_id)) return false;
    this.ids.add(d.deletion_id);
    const list = this.byProject.get(d.project_id);
    if (list) list.push(d);
    else this.byProject.set(d.project_id, [d]);
    return true;
  }

  get size(): number {
    return this.ids.size;
  }

  /** Whether some deletion names this project (before looking at events). */
  touches(projectId: string): boolean {
    return this.byProject.has(projectId);
  }

  /** The first deletion that covers the event; undefined when none does. */
  covering(e: Envelope): DeletionEvent | undefined {
    const list = this.byProject.get(e.project_id);
    return list?.find((d) => covers(d, e));
  }
}

/** A deletion as devtrail records it (PostgreSQL data_deletions: the admin API's filter, kinds by plural name). */
export interface RecordedDeletion {
  id: string;
  projectId: string;
  reason: DeletionEvent['reason'];
  filter: { kinds?: string[]; service?: string; from?: string; to?: string };
  requestedAt: string;
}

/** The event published for a recorded deletion: an operator's deletion compares the events' own time, a lowered retention their receive time. */
export function deletionEventOf(d: RecordedDeletion): DeletionEvent {
  const whole = d.reason === 'project';
  const f = whole ? {} : d.filter;
  const kinds = f.kinds?.map((name) => kindByName(name) ?? name).filter(isDeletionKind) ?? null;
  const iso = (t: string | undefined) => (t ? new Date(t).toISOString() : null);
  return {
    schema_version: DELETION_SCHEMA_VERSION,
    deletion_id: d.id,
    project_id: d.projectId,
    reason: d.reason,
    kinds,
    service: f.service ?? null,
    from: iso(f.from),
    to: iso(f.to),
    time: d.reason === 'retention' ? 'received' : 'event',
    received_before: whole ? null : iso(d.requestedAt),
    requested_at: iso(d.requestedAt)!,
  };
}
