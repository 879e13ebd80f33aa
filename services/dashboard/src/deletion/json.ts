import { z } from 'zod';
import { DELETION_KINDS } from '@devtrail/contract';
import { nameOfKind } from '@devtrail/data-policy';
import { STORE_TIMESTAMP_PATTERN } from '@devtrail/column-store/store-domain';
import type { Deletion } from '@devtrail/relational-store';
import { pgText } from '@devtrail/http';

// A deletion's request body, path parameter and answer (routes.ts, docs/data.md#deletion).

const DELETION_KIND_NAMES = DELETION_KINDS.map(nameOfKind) as [string, ...string[]];
const instant = z.string().datetime({ offset: true }).regex(STORE_TIMESTAMP_PATTERN);
export const deleteEventsBody = z
  .object({
    // The kinds a deletion message can name (@devtrail/contract DELETION_KINDS).
    kinds: z.array(z.enum(DELETION_KIND_NAMES)).min(1).max(DELETION_KIND_NAMES.length).optional(),
    service: pgText().max(500).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  .strict();

export const deletionIdParam = z.object({ deletionId: z.string().uuid() });

export interface DeletionJson {
  id: string;
  project_id: string;
  project_name: string;
  reason: Deletion['reason'];
  filter: Record<string, unknown>;
  requested_by: string;
  requested_at: string;
  status: Deletion['status'];
  phase: string;
  /** Rows deleted so far out of the rows found when the deletion started, 0-100. */
  percent: number;
  tables: Record<string, { rows_at_start: number; remaining: number; done: boolean }>;
  error: string | null;
  finished_at: string | null;
}

export function deletionJson(d: Deletion): DeletionJson {
  const tables = ((d.progress as { tables?: DeletionJson['tables'] }).tables ?? {}) as DeletionJson['tables'];
  const start = Object.values(tables).reduce((n, t) => n + t.rows_at_start, 0);
  const left = Object.values(tables).reduce((n, t) => n + Math.min(t.remaining, t.rows_at_start), 0);
  const done = d.status === 'done';
  return {
    id: d.id,
    project_id: d.projectId,
    project_name: d.projectName,
    reason: d.reason,
    filter: d.filter,
    requested_by: d.requestedBy,
    requested_at: d.requestedAt,
    status: d.status,
    phase: String((d.progress as { phase?: string }).phase ?? 'pending'),
    percent: done ? 100 : start === 0 ? 0 : Math.floor((100 * (start - left)) / start),
    tables,
    error: d.error,
    finished_at: d.finishedAt,
  };
}
