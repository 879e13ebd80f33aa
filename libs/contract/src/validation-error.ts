import type { ZodError } from 'zod';

/** The spec's 400 body: what zod v3's safeParse result looks like once serialised. */
export interface ValidationErrorBody {
  success: false;
  error: { issues: unknown[]; name: string };
}

export function validationErrorBody(error: ZodError): ValidationErrorBody {
  return { success: false, error: { issues: error.issues, name: error.name } };
}

/** A 400 body for problems found before schema validation (e.g. an unparseable body). */
export function invalidBodyError(received: string, message: string): ValidationErrorBody {
  return {
    success: false,
    error: {
      issues: [{ code: 'invalid_type', expected: 'object', received, path: [], message }],
      name: 'ZodError',
    },
  };
}
