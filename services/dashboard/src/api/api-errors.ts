import { ZodError } from 'zod';
import { ColumnStoreError } from '@devtrail/column-store';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The APIs' one mapping from failure to answer: 400 with zod issues, 404, 503 when a store is down. */
export function apiErrorAnswer(err: unknown): { status: number; body: Record<string, unknown> } {
  if (err instanceof ApiError) return { status: err.status, body: { error: err.message } };
  if (err instanceof ZodError) return { status: 400, body: { success: false, error: { issues: err.issues, name: err.name } } };
  if (err instanceof ColumnStoreError) return { status: err.retryable ? 503 : 400, body: { error: err.retryable ? 'Column store unavailable, retry later' : `Query rejected: ${err.message.slice(0, 200)}` } };
  const e = err as { statusCode?: number; message?: string; code?: string };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return { status: e.statusCode, body: { error: e.message ?? 'Bad request' } };
  if (e?.code === 'ECONNREFUSED' || /connect|terminat|timeout/i.test(e?.message ?? '')) return { status: 503, body: { error: 'Store unavailable, retry later' } };
  return { status: 500, body: { error: 'Internal server error' } };
}
