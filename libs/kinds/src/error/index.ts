import { defineKind } from '../kind.ts';
import { ERROR_FIELDS } from './event.ts';
import { errorReportSchema, errorToEvent } from './request.ts';
import { errorsFromOtlp } from './otlp.ts';
import { errorGroupStatements, groupsRetentionStep, groupsUnnamedTupleStep } from './groups.ts';
import { ERROR_PATH, errorDocs } from './docs.ts';

// Errors: one report per request (also from OTLP exception events, otlp.ts), fingerprinted
// by the receiver (fingerprint.ts); the error sink is also the grouping stage (groups.ts).
export const error = defineKind({
  id: 'error',
  name: 'errors',
  path: ERROR_PATH,
  request: errorReportSchema,
  fields: ERROR_FIELDS,
  toEvents: (body, now) => [errorToEvent(body, now)],
  respond: ([e]) => ({ ok: true, fingerprint: e.fingerprint }),
  // One group's occurrences in order on one partition, when a batch is all one group.
  partitionKey: 'fingerprint',
  table: {
    // When it was received: the Ingestion page counts by it (rows written before it was added read 1970).
    receivedAt: true,
    indexes: ['idx_trace trace_id TYPE bloom_filter(0.01) GRANULARITY 4'],
    engine: 'ReplacingMergeTree',
    partitionBy: 'toYYYYMMDD(timestamp)',
    orderBy: '(project_id, fingerprint, timestamp, event_id)',
    ttlColumn: 'timestamp',
    timeColumn: 'timestamp',
    after: (days, table, cluster) => errorGroupStatements(table, days, cluster),
    steps: [groupsRetentionStep, groupsUnnamedTupleStep],
  },
  otlp: errorsFromOtlp,
  docs: errorDocs,
});
