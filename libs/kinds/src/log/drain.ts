import { z } from 'zod';
import { jsonObject, MAX_ID_LENGTH, MAX_RELEASE_LENGTH } from '../request-fields.ts';
import { COLUMN } from '@devtrail/column-store/store-domain';
import type { LogEvent } from './event.ts';

// Vercel log drain entries (JSON array or NDJSON). Vercel adds fields over time, so
// unknown fields are kept (passthrough) and only what we map is checked. The mapping
// is documented in docs/api.md#log-drain.

/** The receiver's route a Vercel log drain posts to; its entries are logs. */
export const DRAIN_PATH = '/ingest/drain';
export const DRAIN_KIND = 'log';
/** The Content-Types read as NDJSON (one entry per line); JSON and text/plain are read as one array. */
export const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'];
export const MAX_DRAIN_ENTRIES = 5000;

const proxySchema = jsonObject.optional();

export const drainEntrySchema = z
  .object({
    id: z.string().optional(),
    message: z.string().optional(),
    // Epoch milliseconds, within what the time columns hold.
    timestamp: z.number().min(COLUMN.time.minMs).max(COLUMN.time.maxMs),
    level: z.string().optional(),
    type: z.string().optional(),
    source: z.string().optional(),
    host: z.string().optional(),
    path: z.string().optional(),
    statusCode: z.number().finite().optional(),
    requestId: z.string().max(MAX_ID_LENGTH).optional(),
    deploymentId: z.string().optional(),
    projectId: z.string().optional(),
    projectName: z.string().optional(),
    environment: z.string().optional(),
    entrypoint: z.string().optional(),
    executionRegion: z.string().optional(),
    traceId: z.string().max(MAX_ID_LENGTH).optional(),
    spanId: z.string().max(MAX_ID_LENGTH).optional(),
    proxy: proxySchema,
  })
  .passthrough();

export const drainBodySchema = z.array(drainEntrySchema).max(MAX_DRAIN_ENTRIES);
export type DrainEntry = z.infer<typeof drainEntrySchema>;

/** A Map, not an object: a sender's "__proto__" or "constructor" must not find Object.prototype's. */
const LEVELS = new Map<string, LogEvent['level']>([
  ['debug', 'debug'],
  ['info', 'info'],
  ['warning', 'warn'],
  ['warn', 'warn'],
  ['error', 'error'],
  ['fatal', 'error'],
]);

/** Vercel level -> devtrail level; unknown or missing levels read as info. */
export function drainLevel(level: string | undefined): LogEvent['level'] {
  return LEVELS.get((level ?? '').toLowerCase()) ?? 'info';
}

export function drainEntryToEvent(e: DrainEntry): LogEvent {
  const metadata: Record<string, unknown> = { vercel: true };
  const put = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== '') metadata[k] = v;
  };
  put('drain_id', e.id);
  put('source', e.source);
  put('type', e.type);
  put('host', e.host);
  put('path', e.path);
  put('status_code', e.statusCode);
  put('deployment_id', e.deploymentId);
  put('vercel_project_id', e.projectId);
  put('entrypoint', e.entrypoint);
  put('region', e.executionRegion);
  put('proxy', e.proxy);
  return {
    service: e.projectName || 'vercel',
    environment: e.environment || 'production',
    release: (e.deploymentId ?? '').slice(0, MAX_RELEASE_LENGTH),
    timestamp: new Date(e.timestamp).toISOString(),
    level: drainLevel(e.level),
    message: e.message ?? '',
    metadata,
    trace_id: e.traceId ?? '',
    span_id: e.spanId ?? '',
    request_id: e.requestId ?? '',
    context: e.source ?? '',
  };
}
