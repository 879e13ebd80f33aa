import { z } from 'zod';
import { storeTimestamp } from '@devtrail/column-store/store-domain';
import { id, jsonObject, sharedRequestFields } from '../request-fields.ts';
import { severities, type ErrorEvent } from './event.ts';
import { errorTypeOf } from './grouping/error-type.ts';
import { fingerprint } from './grouping/fingerprint.ts';
import { earlierFingerprints } from './grouping/fingerprint-v2.ts';

// POST /ingest/errors: one error report (docs/api.md). The receiver fingerprints it
// (fingerprint.ts) and stamps the receive time.

/** Breadcrumbs of one report: SDKs keep the last 100 by default; more is refused (400) before any is checked. */
export const MAX_BREADCRUMBS = 1000;
/** A client's own fingerprint: up to 20 values of up to 500 characters each (docs/fingerprint.md, "Choosing the group"). */
export const MAX_FINGERPRINT_VALUES = 20;
export const MAX_FINGERPRINT_CHARS = 500;

export const clientFingerprintSchema = z.array(z.string().max(MAX_FINGERPRINT_CHARS)).max(MAX_FINGERPRINT_VALUES);

export const breadcrumbSchema = z.object({
  type: z.string(),
  message: z.string(),
  timestamp: storeTimestamp,
});

export const errorReportSchema = z.object({
  ...sharedRequestFields,
  error_message: z.string(),
  stack_trace: z.string(),
  severity: z.enum(severities).default('medium'),
  context: jsonObject.optional(),
  trace_id: id.optional(),
  user_id: z.string().optional(),
  breadcrumbs: z.array(breadcrumbSchema).max(MAX_BREADCRUMBS).optional(),
  fingerprint: clientFingerprintSchema.optional(),
});

export type ErrorReport = z.infer<typeof errorReportSchema>;

export function errorToEvent(e: ErrorReport, now: string): ErrorEvent {
  const fp = fingerprint(e);
  return {
    service: e.service,
    environment: e.environment,
    release: e.release ?? '',
    timestamp: now,
    fingerprint: fp,
    error_type: errorTypeOf(e.stack_trace, e.error_message, e.context),
    error_message: e.error_message,
    stack_trace: e.stack_trace,
    severity: e.severity,
    context: e.context ?? {},
    trace_id: e.trace_id ?? '',
    user_id: e.user_id ?? '',
    breadcrumbs: e.breadcrumbs ?? [],
    // A group the client chose was never an earlier rule's.
    previous_fingerprint: earlierFingerprints(e, fp),
  };
}
