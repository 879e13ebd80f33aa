import { z } from 'zod';
import { jsonDepth } from './json-depth.ts';

// What every kind's request body shares (the wire contract: docs/api.md), and its limits.

export const MAX_JSON_DEPTH = 32;
export const MAX_RELEASE_LENGTH = 128;
/** Trace, span, parent span and request ids: W3C ids are 32 and 16 hex, others rarely longer than 40. */
export const MAX_ID_LENGTH = 128;

export const release = z.string().max(MAX_RELEASE_LENGTH);
export const id = z.string().max(MAX_ID_LENGTH);

/** Arbitrary key-value data, bounded in depth so later serialisation stays safe. */
export const jsonObject = z.record(z.unknown()).superRefine((value, ctx) => {
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `Nested deeper than ${MAX_JSON_DEPTH} levels` });
  }
});

/** service, environment and release, with the defaults every kind applies. */
export const sharedRequestFields = {
  service: z.string().default('unknown'),
  environment: z.string().default('production'),
  release: release.optional(),
};
