// Turns whatever was thrown (Error, string, object, undefined) into the
// message and stack the error endpoint requires.
import { safeStringify } from './safe-json.js';

export interface ErrorInfo {
  message: string;
  stack: string;
  type: string;
}

const MAX_CAUSE_DEPTH = 5;

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return safeStringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function errorInfo(error: unknown): ErrorInfo {
  if (!(error instanceof Error)) {
    const message = describe(error) || 'Unknown error';
    return { message, stack: message, type: typeof error };
  }
  let stack = error.stack || `${error.name}: ${error.message}`;
  // Keep the cause chain: the root cause is often the useful part.
  let cause: unknown = error.cause;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSE_DEPTH; depth++) {
    stack += `\nCaused by: ${cause instanceof Error ? cause.stack || `${cause.name}: ${cause.message}` : describe(cause)}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return { message: error.message || error.name || 'Error', stack, type: error.name };
}
