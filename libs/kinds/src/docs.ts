import type { AnyZodObject, z } from 'zod';
import { describeFields, type ApiDocs } from '@devtrail/http/api-docs';
import { MAX_JSON_DEPTH, MAX_RELEASE_LENGTH } from './request-fields.ts';

// What the kinds' parts of the OpenAPI document share (each kind's docs.ts documents its body).

export const METADATA_NOTE = `Arbitrary JSON object, nested at most ${MAX_JSON_DEPTH} levels.`;
export const COUNT_NOTE = '>= 0, rounded to an integer.';
const SHARED_NOTES = { service: 'Service name.', environment: 'Environment name.', release: `Release identifier, at most ${MAX_RELEASE_LENGTH} characters.` };

/** Registers a request body component: the schema with notes on its fields (validation unchanged). */
export function requestComponent(docs: ApiDocs, name: string, schema: AnyZodObject, path: string, notes: Record<string, string>, about = ''): z.ZodTypeAny {
  return docs.registry.register(name, describeFields(schema, { ...SHARED_NOTES, ...notes }).openapi({ description: `Body of POST ${path}${about}` }));
}
